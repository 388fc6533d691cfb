// Package channel is the <channel> medium: the simulated communication
// of the messaging devices (ci.Topic), after ASCARI. A channel lists
// stages (range, line of sight, delay, loss, bandwidth, graph, or a
// user's Model) that a message goes through in three steps at each
// tick: Update (the stages see the agents), Receive (each message once)
// and Forward (each delivery to a receiver).
//
// What the robots send during a control step is in the channel's
// outboxes; Update collects it, runs the stages and fills the inboxes
// that the robots read at the next control step. Forwarding runs per
// message, in parallel chunks, and a counting sort puts the deliveries
// in receiver order; on a channel of one range and losses only, a tick
// of broadcasts is instead delivered receiver by receiver, from the
// same candidate lists and with the same draws. Either way a robot's
// inbox is one run of compact entries (ci.InboxEntry: topic, sender,
// payloads up to 24 bytes inline), which a Topic reads in order without
// visiting the senders' messages; the generic ci.Message views are made
// from them when a controller asks for them.
//
// A tick at which no robot sends, on a channel whose stages are the
// built-in range, losses and delays (their Update reads nothing), skips
// the gathering of the agents' states and the first two steps: it only
// delivers what earlier ticks held. A tick that fills no inbox raises a
// flag the robots' topics read instead of asking for their empty inboxes
// (ci.InboxQuieter).
//
// Delivery is deterministic: the same seed gives the same inboxes, in
// the same order, whatever the number of threads.
package channel
