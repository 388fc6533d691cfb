// Package ascari holds the experiment files of ASCARI's applications
// (controllers/ascari): consensus.argos, rendezvous.argos and
// traffic.argos, agents with dynamics written in the file talking over a
// lossy, delayed, range-limited <channel>. Run them with
// argos -c experiments/ascari/NAME.argos. It has no Go API: its tests
// check what each file promises (the average reached, the agents met, no
// two agents ever on one node) and BenchmarkTrafficControl measures the
// traffic experiment against real time; the tests of cli run every file
// through the argos command.
package ascari
