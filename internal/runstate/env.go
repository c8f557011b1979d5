package runstate

import (
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/secrets"
)

// Env is what a run takes from the process's environment, read once by
// the front end (ReadEnv) and handed to the run: its checks read no
// environment of their own, so that a run behaves as its maker says.
type Env struct {
	// SecretKey keys the hashes of Secret values (secrets.KeyEnv); nil
	// for unkeyed hashes.
	SecretKey []byte
	// Limits are the cluster engine's limits the environment overrides
	// (fault tests'), and the error of one that does not read.
	Limits predict.Limits
}

// ReadEnv reads the environment a run takes; for the front end alone.
func ReadEnv() Env {
	return Env{SecretKey: secrets.KeyFromEnv(), Limits: predict.EnvLimits()}
}
