package model

// FieldManagerRequired is what is wrong without the deploy's field
// manager, however it is named (the --field-manager flag, the action's
// field-manager input, a stage's option): one wording everywhere.
const FieldManagerRequired = "required: the manager name your deploy applies with (kubectl apply --server-side --field-manager=NAME)"
