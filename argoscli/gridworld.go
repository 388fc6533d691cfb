package argoscli

import (
	"context"
	"errors"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/gridrun"
	"github.com/argosgo/argos/simulator"
	"github.com/sirupsen/logrus"

	// ParSwarm's applications and the random walk: every argos binary
	// runs the grid-world experiments of experiments/gridworld.
	_ "github.com/argosgo/argos/gridworld/density"
	_ "github.com/argosgo/argos/gridworld/taskalloc"
	_ "github.com/argosgo/argos/gridworld/walk"
)

// isGridExperiment reports whether file is a grid-world experiment: its
// <arena> holds a <grid>. Files it cannot read are left to config.Load,
// which says what is wrong.
func isGridExperiment(file string) bool {
	data, err := config.ReadFile(file)
	return err == nil && gridworld.IsGrid(data)
}

// runGrid runs a grid-world experiment (package gridrun) with the
// command line's settings.
func runGrid(ctx context.Context, file string, opt simulator.Options, log *logrus.Logger, outs *outputs) error {
	if outs.frames != "" || outs.video != "" {
		return errors.New("--frames and --video draw robot arenas; a grid world has the web view (--viz web) and the metrics of --out (argos plot)")
	}
	_, err := gridrun.Run(ctx, file, gridrun.Options{
		Seed: opt.Seed, Threads: opt.Threads, Length: outs.length, Headless: opt.Headless,
		Web: outs.viz == "web", WebAddr: outs.vizAddr,
		Out: outs.out, Parquet: outs.parquet,
		Progress: outs.progress, ProgressEvery: outs.progressEvery,
		Args: outs.args, Log: log, Stderr: outs.stderr,
		Built: func() error { return setSoftLimit(outs, log) },
	})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return errInterrupted
	}
	return err
}
