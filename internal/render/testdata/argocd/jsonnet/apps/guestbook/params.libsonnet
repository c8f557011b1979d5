{
  port: 80,
  image: 'gcr.io/google-samples/gb-frontend:v5',
}
