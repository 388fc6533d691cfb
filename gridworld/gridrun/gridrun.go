// Package gridrun runs a grid-world experiment file the way the argos
// command runs any experiment: the seed and thread count of the file or
// the command line, the experiment's length in rounds or the program's
// is-finished test, a run folder with the experiment as run, run.json,
// the log and the program's metrics (argos plot draws them), a progress
// report, and the web view.
package gridrun

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/gridweb"
	"github.com/argosgo/argos/simulator/record"
	"github.com/sirupsen/logrus"
)

// Options are the command line's settings of a run.
type Options struct {
	// Seed, Threads and Length (simulated seconds; rounds at the default
	// ticks_per_second of 1), when not nil, replace the file's.
	Seed    *uint64
	Threads *int
	Length  *float64
	// Headless skips the web view even when the file asks for one.
	Headless bool
	// Web adds the web view at WebAddr ("host:port") when the file has
	// none.
	Web     bool
	WebAddr string
	// Out is the run folder to write ("" for none), Parquet adds
	// metrics.parquet.
	Out     string
	Parquet bool
	// Progress is "auto" (a bar on a terminal, log lines otherwise),
	// "bar", "log" or "off"; ProgressEvery the interval of the log lines.
	Progress      string
	ProgressEvery time.Duration
	// Args is the command line, for the run folder.
	Args []string
	// Log is the run's log (a new one on Stderr when nil); Stderr takes
	// the progress bar.
	Log    *logrus.Logger
	Stderr io.Writer
	// WebReady, when not nil, is called with the web view's address once
	// it listens.
	WebReady func(url string)
	// Built, when not nil, is called once the world is built, before the
	// first round (the command line sets the run's soft memory limit
	// there, from the heap then); an error it returns ends the run.
	Built func() error
}

// Result says how a run went.
type Result struct {
	Rounds   int
	Finished bool // the program's is-finished test ended the run
	Seed     uint64
	Threads  int
	Folder   string // the run folder, "" without one
}

// Run runs the grid-world experiment in file. A cancelled ctx stops it
// after the current round, with complete outputs; its error is returned
// then.
func Run(ctx context.Context, file string, o Options) (res Result, err error) {
	start := time.Now()
	log := o.Log
	if log == nil {
		log = logrus.New()
		if o.Stderr != nil {
			log.SetOutput(o.Stderr)
		}
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	data, err := config.ReadFile(file)
	if err != nil {
		return res, err
	}
	x, err := gridworld.Parse(file, data)
	if err != nil {
		return res, err
	}
	if o.Length != nil {
		if *o.Length < 0 {
			return res, fmt.Errorf("gridrun: --length %g: give the number of rounds (seconds at ticks_per_second), or 0 for no limit", *o.Length)
		}
		x.Framework.Length = *o.Length
	}
	threads := x.Framework.Threads
	if o.Threads != nil {
		threads = *o.Threads
	}
	if threads < 0 || threads > config.MaxThreads {
		return res, fmt.Errorf("gridrun: threads=%d: use 0 (one goroutine) or a positive number up to %d", threads, config.MaxThreads)
	}
	seed := x.Framework.RandomSeed
	if o.Seed != nil {
		seed = *o.Seed
	}
	if seed == 0 {
		var b [8]byte
		_, _ = crand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])>>1 | 1
		log.Infof("random_seed is 0: using seed %d (pass --seed %d to repeat this run)", seed, seed)
	}
	res.Seed, res.Threads = seed, threads
	for _, w := range x.Warnings {
		log.Warn(w)
	}
	web, err := webOptions(x, o)
	if err != nil {
		return res, err
	}

	// the run folder, before anything runs, so that its log has it all
	var folder *record.Folder
	var rows *record.Rows
	var logF *os.File
	if o.Out != "" {
		if folder, err = record.Create(o.Out); err != nil {
			return res, err
		}
		res.Folder = folder.Dir()
		if logF, err = os.Create(folder.Path(record.LogFile)); err != nil {
			return res, fmt.Errorf("record: %w", err)
		}
		prev := log.Out
		log.SetOutput(io.MultiWriter(prev, logF))
		defer func() {
			log.SetOutput(prev)
			if cerr := logF.Close(); err == nil && cerr != nil {
				err = cerr
			}
		}()
		over := record.Overrides{Threads: o.Threads, Length: o.Length}
		if err = folder.WriteExperiment(&config.Experiment{Framework: x.Framework}, data, seed, over); err != nil {
			return res, err
		}
		abs, _ := filepath.Abs(file)
		if err = folder.WriteCommand(record.Info{Command: o.Args, Experiment: abs, Seed: seed, Threads: threads, Started: start.UTC().Round(time.Millisecond)}); err != nil {
			return res, err
		}
		if rows, err = folder.NewRows(o.Parquet); err != nil {
			return res, err
		}
	}
	tps := float64(x.Framework.TicksPerSecond)
	var inst gridworld.Instance
	finish := func(runErr error) error {
		var errs []error
		if rows != nil {
			if rep, ok := inst.(gridworld.Reporter); ok {
				rep.Report(recorder{rows, int64(res.Rounds), float64(res.Rounds) / tps}, true)
			}
			errs = append(errs, rows.Close())
		}
		if folder != nil {
			status := "finished"
			switch {
			case ctx.Err() != nil && errors.Is(runErr, ctx.Err()):
				status = "interrupted"
			case runErr != nil:
				status = "error: " + runErr.Error()
				log.Error(runErr)
			}
			errs = append(errs, folder.Finish(res.Rounds, float64(res.Rounds)/tps, status))
			log.Infof("run folder: %s", folder.Dir())
		}
		return errors.Join(errs...)
	}

	if inst, err = x.Build(seed, threads); err != nil {
		if folder != nil {
			err = errors.Join(err, finish(err))
		}
		return res, err
	}
	log.Infof("%s: %s of %d agents (%s, radius %d) on a %s grid, %d threads, seed %d; set-up took %.3f s",
		file, x.Program, x.Agents, rounds(x), x.Radius, x.Grid, max(1, threads), seed, time.Since(start).Seconds())
	if o.Built != nil {
		if err = o.Built(); err != nil {
			return res, errors.Join(err, finish(err))
		}
	}

	var view *gridweb.Server
	if web != nil {
		web.Title = filepath.Base(file)
		if view, err = gridweb.Start(inst, *web); err != nil {
			return res, errors.Join(err, finish(err))
		}
		defer view.Close()
		log.Infof("grid view at %s (the run starts paused: press Play)", view.URL())
		if o.WebReady != nil {
			o.WebReady(view.URL())
		}
	}

	prog := newProgress(o.Stderr, o.Progress, o.ProgressEvery, log)
	limit := x.Rounds()
	loopStart := time.Now()
	rep, _ := inst.(gridworld.Reporter)
	var runErr error
	for (limit == 0 || inst.Round() < limit) && !inst.Finished() {
		if runErr = ctx.Err(); runErr != nil {
			break
		}
		if view != nil {
			if runErr = view.Wait(ctx); runErr != nil {
				break
			}
		}
		if runErr = inst.Step(); runErr != nil {
			break
		}
		res.Rounds = inst.Round()
		if rows != nil && rep != nil {
			rep.Report(recorder{rows, int64(res.Rounds), float64(res.Rounds) / tps}, false)
			if res.Rounds%64 == 0 {
				if runErr = rows.Flush(); runErr != nil {
					break
				}
			}
		}
		if view != nil {
			view.Publish()
		}
		if prog != nil {
			prog.update(res.Rounds, limit, false)
		}
	}
	res.Rounds = inst.Round()
	res.Finished = inst.Finished()
	if prog != nil {
		prog.update(res.Rounds, limit, true)
	}
	wall := time.Since(loopStart).Seconds()
	how := "the length was reached"
	switch {
	case res.Finished:
		how = "the program finished"
	case runErr != nil:
		how = "stopped"
	}
	log.Infof("ran %d rounds in %.3f s (%.3g agent-rounds per second); %s", res.Rounds, wall, float64(res.Rounds)*float64(x.Agents)/max(wall, 1e-9), how)
	if ferr := finish(runErr); runErr == nil {
		runErr = ferr
	}
	if view != nil && runErr == nil && ctx.Err() == nil {
		log.Infof("the run is over; the grid view stays at %s until you press Ctrl-C", view.URL())
		view.Finish(ctx)
	}
	return res, runErr
}

func rounds(x *gridworld.Experiment) string {
	if n := x.Rounds(); n > 0 {
		return strconv.Itoa(n) + " rounds"
	}
	return "until finished"
}

// webOptions returns the web view's options: the file's <web> (or
// <qt-opengl>, which ARGoS files hold) or --viz web; nil when there is
// no view or the run is headless.
func webOptions(x *gridworld.Experiment, o Options) (*gridweb.Options, error) {
	var web *gridweb.Options
	for _, n := range x.Visualizations {
		switch n.Name {
		case "web", "qt-opengl":
			if web != nil {
				continue
			}
			w := &gridweb.Options{}
			if n.Name == "web" {
				if err := n.CheckAttrs("port", "address", "autoplay", "fps", "speed"); err != nil {
					return nil, err
				}
				var err error
				if w.Port, err = n.IntOr("port", 8080); err != nil {
					return nil, err
				}
				if w.Port < 0 || w.Port > 65535 {
					return nil, n.AttrErrorf("port", "write a port from 1 to 65535, or 0 for any free one")
				}
				w.Address = n.StringOr("address", "")
				if w.Autoplay, err = n.BoolOr("autoplay", false); err != nil {
					return nil, err
				}
			} else {
				w.Port = 8080
			}
			web = w
		default:
			x.Warnings = append(x.Warnings, n.Where()+": <"+n.Name+"> is ignored by grid worlds: they have the web view (<web>) and the metrics of --out")
		}
	}
	if o.Web && web == nil {
		host, port, err := splitHostPort(o.WebAddr)
		if err != nil {
			return nil, err
		}
		web = &gridweb.Options{Address: host, Port: port}
	}
	if o.Headless {
		return nil, nil
	}
	return web, nil
}

func splitHostPort(s string) (string, int, error) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			host := s[:i]
			if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
				host = host[1 : len(host)-1]
			}
			p, err := strconv.Atoi(s[i+1:])
			if err != nil || host == "" || p < 0 || p > 65535 {
				break
			}
			return host, p, nil
		}
	}
	return "", 0, fmt.Errorf("--viz-addr %q: write address:port, like 127.0.0.1:8080", s)
}

// recorder writes a program's metrics of one round into the run folder.
type recorder struct {
	rows *record.Rows
	tick int64
	time float64
}

func (r recorder) Record(metric string, v float64) { r.rows.Write(r.tick, r.time, "", metric, v) }

func (r recorder) RecordAgent(id int32, metric string, v float64) {
	r.rows.Write(r.tick, r.time, strconv.Itoa(int(id)), metric, v)
}
