// Package ascari groups the applications of ASCARI (Ferrati, Settimi and
// Pallottino, "ASCARI: a component based simulator for distributed
// mobile robot systems", MESAS 2014) written as ARGoS-Go controllers:
// agents with dynamics written in the experiment file (the custom
// engine's <agent> entities) that talk over a <channel> medium.
//
//   - consensus: distributed averaging of initial values over a lossy,
//     delayed, range-limited channel (ascari_consensus_controller);
//   - rendezvous: agents meet at one point, knowing each other only
//     through the channel (ascari_rendezvous_controller);
//   - traffic: ASCARI's traffic control on a graph, where agents lock
//     the nodes they are about to cross so that no two are ever on one
//     node (ascari_traffic_controller);
//   - unicycle: the driving helper they share.
//
// The experiment files are in experiments/ascari. The controllers import
// only ci, so the robot binary links them as it links every example
// (controllers/examples).
package ascari
