// Package loop holds the loop functions that ship with ARGoS-Go, each
// registered under the label .argos files use in
// <loop_functions label="...">. The hook interface itself is
// simulator.LoopFunctions.
package loop
