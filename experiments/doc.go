// Package experiments holds the .argos experiment files that ship with
// ARGoS-Go (run them with argos -c experiments/NAME.argos). It has no Go
// API: its tests run each example experiment headless with its own seed
// and check the outcome it documents.
package experiments
