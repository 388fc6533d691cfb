// Package cli has only tests: they run the experiment files of
// experiments/ascari through the argos command (argoscli), apart from
// the experiments' own tests so that those do not link the command.
package cli
