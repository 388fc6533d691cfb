package main

// The controllers this binary can run. `make robot-<model>
// CONTROLLERS="diffusion foraging"` builds with another list (it replaces
// this file through go build -overlay); add a line here to ship a new
// controller by default.
import (
	_ "github.com/argosgo/argos/controllers/diffusion"
)
