// Package sweep runs many experiments: every combination of parameter
// values and seeds of a sweep file, on the local cores or as a Slurm job
// array, and gathers their metrics into one tidy table. It also speaks
// irace's target-runner protocol and evolves controller weights with
// CMA-ES, each generation evaluated as a sweep.
//
// A sweep file (YAML) names a base .argos file, the parameters to vary as
// paths into its XML, their values, the seeds and the metrics to keep:
//
//	experiment: diffusion_10.argos
//	length: 60
//	parameters:
//	  - name: velocity
//	    path: controllers/footbot_diffusion_controller/params@velocity
//	    values: [2, 5, 10]
//	  - name: alpha
//	    path: controllers/*/params@alpha
//	    range: {min: 5, max: 30, step: 5}
//	seeds: {from: 1, count: 10}
//	metrics:
//	  - coverage
//	  - {name: loop_s, metric: run.loop_seconds}
//
// docs/sweeps.md describes every key. [Load] reads and checks a sweep
// file (mistakes are reported at file:line), [NewPlan] lays out its runs
// (cells), [Run] runs them, each in a process of its own (argos -z -c
// CELL --out DIR), so that a crash stops one run only. A sweep folder
// holds:
//
//	plan.json          the plan: parameters, metrics, every cell
//	cells/000012.argos the experiment of cell 12 (argos -c it to repeat the run)
//	runs/000012/       its run folder, as argos --out writes it, plus sweep.json
//	results.csv        one row per run and metric, the parameters as columns
//	results.parquet    the same rows
//
// A cell is done when its sweep.json exists; running the sweep again
// skips the done cells, so an interrupted sweep resumes. [SubmitSlurm]
// writes and submits an sbatch job array whose tasks run
// [RunTask]; [Collect] gathers the table at any time.
package sweep
