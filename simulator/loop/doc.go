// Package loop holds the loop functions every argos binary has: the
// scalability benchmark's bench_loop_functions (what argos bench reads),
// and StatsFile, the per-tick statistics file of ARGoS-style loop
// functions. The hook interface itself is simulator.LoopFunctions; the
// loop functions of ARGoS's examples are in
// github.com/argosgo/argos/loop_functions.
package loop
