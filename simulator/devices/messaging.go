package devices

import (
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media/channel"
)

// MessagingAttrs are the attributes of <messaging>: the simulator reads
// medium and topic; group, peers, listen, token and token_env configure
// a real robot's network (realrobot) and are accepted here so that one
// file serves both.
var MessagingAttrs = []string{"implementation", "medium", "topic", "group", "peers", "listen", "token", "token_env"}

const messagingHelp = "Typed messages (ci.NewTopic) through a <channel> medium, delivered at the next control step as the channel's stages allow. " +
	"Attributes: medium (the channel's id; optional with one channel), topic (comma-separated topics it carries; default all). " +
	"The same element configures a real robot's UDP messaging (group, peers, listen, token, token_env)."

func init() {
	Actuators.MustRegister(ci.TagMessaging, "Sends messages (ci.MessagingActuator). "+messagingHelp, newMessagingSender)
	Sensors.MustRegister(ci.TagMessaging, "Receives messages (ci.MessagingSensor). "+messagingHelp, newMessagingReceiver)
}

// messagingChannel finds the channel a <messaging> element names and
// reads its topics.
func messagingChannel(r *entity.Robot, n *config.Node) (*channel.Channel, []string, error) {
	if err := n.CheckAttrs(MessagingAttrs...); err != nil {
		return nil, nil, err
	}
	var ch *channel.Channel
	var err error
	if id, ok := n.Attr("medium"); ok {
		ch, err = entity.Medium[*channel.Channel](r.World, id)
	} else {
		ch, err = entity.OnlyMedium[*channel.Channel](r.World, "channel")
	}
	if err != nil {
		return nil, nil, n.Errorf("devices: <messaging> of %s %q: %v (<media><channel id=\"radio\"/></media>)", r.Model.Type, r.ID, err)
	}
	var topics []string
	if t, ok := n.Attr("topic"); ok {
		for _, s := range strings.Split(t, ",") {
			if s = strings.TrimSpace(s); s != "" {
				topics = append(topics, s)
			}
		}
		if len(topics) == 0 {
			return nil, nil, n.AttrErrorf("topic", "devices: list the topics, separated by commas, or leave the attribute out to carry every topic")
		}
	}
	return ch, topics, nil
}

func newMessagingSender(r *entity.Robot, n *config.Node) (any, error) {
	ch, topics, err := messagingChannel(r, n)
	if err != nil {
		return nil, err
	}
	return ch.NewSender(r, topics), nil
}

func newMessagingReceiver(r *entity.Robot, n *config.Node) (any, error) {
	ch, topics, err := messagingChannel(r, n)
	if err != nil {
		return nil, err
	}
	return ch.NewReceiver(r, topics), nil
}
