package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/telemetry"
)

// A command for a terminal held by another node is a request on <prefix>.cmd.<node>: that node sends
// it through its session, records it in the command log (the shared store) and answers with the
// outcome, so the caller sees what it would see on one node.

// messages are the JT/T 808 messages that may cross nodes, by Go type name: the downlink commands and
// the answers that carry data.
var messages = map[string]func() jt808.Message{}

func init() {
	for _, m := range []jt808.Message{&jt808.VehicleControl{}, &jt808.SetParams{}, &jt808.Empty{}, &jt808.PassThrough{},
		&jt808.Text{}, &jt808.Upgrade{}, &jt808.LiveStart{}, &jt808.LiveControl{}, &jt808.LiveStatus{}, &jt808.PlaybackStart{},
		&jt808.PlaybackControl{}, &jt808.QueryResources{}, &jt808.ResourceList{}, &jt808.ParamsReply{}, &jt808.ControlReply{}} {
		t := reflect.TypeOf(m).Elem()
		messages[t.Name()] = func() jt808.Message { return reflect.New(t).Interface().(jt808.Message) }
	}
}

type wireMsg struct {
	Type string          `json:"type"`
	Body json.RawMessage `json:"body"`
}

func encodeMsg(m jt808.Message) (*wireMsg, error) {
	if m == nil || reflect.ValueOf(m).IsNil() {
		return nil, nil
	}
	name := reflect.TypeOf(m).Elem().Name()
	if messages[name] == nil {
		return nil, fmt.Errorf("cluster: message %s cannot be sent through another node", name)
	}
	b, err := json.Marshal(m)
	return &wireMsg{Type: name, Body: b}, err
}

func (w *wireMsg) decode() (jt808.Message, error) {
	if w == nil {
		return nil, nil
	}
	mk := messages[w.Type]
	if mk == nil {
		return nil, fmt.Errorf("cluster: unknown message %q", w.Type)
	}
	m := mk()
	return m, json.Unmarshal(w.Body, m)
}

type cmdRequest struct {
	Terminal int64              `json:"terminal"`
	Msg      *wireMsg           `json:"msg"`
	Command  *telemetry.Command `json:"command"`
}

// Outcome kinds of a forwarded command: the gateway's errors by name.
const (
	outOK       = ""
	outOffline  = "offline"
	outTimeout  = "timeout"
	outRejected = "rejected"
	outCaller   = "caller"
	outOther    = "error"
)

type cmdAnswer struct {
	Command *telemetry.Command `json:"command"`
	Reply   *wireMsg           `json:"reply"`
	Outcome string             `json:"outcome"`
	Text    string             `json:"text"`
}

// Ask forwards a command to the node that holds the terminal. handled is false when no other node
// holds it (or the holder is gone): the gateway then records it as offline, as on one node.
func (n *Node) Ask(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) (jt808.Message, bool, error) {
	v, _, err := n.owners.Get(ctx, ownerKey(terminalID))
	if err != nil {
		if !errors.Is(err, bus.ErrNotFound) {
			n.log.Warn("bus: who holds the terminal is unknown; the command is not forwarded", "terminal", terminalID, "err", err)
		}
		return nil, false, nil
	}
	o, ok := decodeOwner(v)
	if !ok || o.node == n.bus.Node() {
		return nil, false, nil
	}
	wm, err := encodeMsg(msg)
	if err != nil {
		return nil, false, err
	}
	req, err := json.Marshal(cmdRequest{Terminal: terminalID, Msg: wm, Command: c})
	if err != nil {
		return nil, false, err
	}
	rctx, cancel := context.WithTimeout(ctx, n.cfg.CommandTimeout+5*time.Second)
	defer cancel()
	data, err := n.bus.Request(rctx, n.prefix+".cmd."+o.node, req)
	if errors.Is(err, bus.ErrNoResponder) {
		return nil, false, nil // the holder is gone; its entry expires
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, true, ctx.Err()
		}
		return nil, true, fmt.Errorf("%w: node %s did not answer: %v", gateway.ErrTimeout, o.node, err)
	}
	var a cmdAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, true, fmt.Errorf("cluster: answer of node %s: %w", o.node, err)
	}
	if a.Command != nil {
		*c = *a.Command
	}
	reply, err := a.Reply.decode()
	if err != nil {
		return nil, true, err
	}
	switch a.Outcome {
	case outOK:
		return reply, true, nil
	case outOffline:
		return nil, true, gateway.ErrOffline
	case outTimeout:
		return nil, true, gateway.ErrTimeout
	case outRejected:
		return nil, true, fmt.Errorf("%w: %s", gateway.ErrRejected, a.Text)
	case outCaller:
		return nil, true, context.DeadlineExceeded
	}
	return nil, true, errors.New(a.Text)
}

// serveCommand sends a forwarded command through this node's session.
func (n *Node) serveCommand(ctx context.Context, data []byte) []byte {
	var req cmdRequest
	a := cmdAnswer{}
	msg, err := func() (jt808.Message, error) {
		if err := json.Unmarshal(data, &req); err != nil {
			return nil, err
		}
		if req.Command == nil {
			req.Command = &telemetry.Command{}
		}
		return req.Msg.decode()
	}()
	if err == nil && msg == nil {
		err = errors.New("cluster: forwarded command without a message")
	}
	if err != nil {
		a.Outcome, a.Text = outOther, err.Error()
	} else {
		ctx, cancel := context.WithTimeout(ctx, n.cfg.CommandTimeout+time.Second)
		defer cancel()
		var reply jt808.Message
		reply, err = n.gw.AskHere(ctx, req.Terminal, msg, req.Command)
		a.Command = req.Command
		switch {
		case err == nil:
			a.Reply, err = encodeMsg(reply)
			if err != nil {
				a.Outcome, a.Text = outOther, err.Error()
			}
		case errors.Is(err, gateway.ErrOffline):
			a.Outcome = outOffline
		case errors.Is(err, gateway.ErrTimeout):
			a.Outcome = outTimeout
		case errors.Is(err, gateway.ErrRejected):
			a.Outcome, a.Text = outRejected, req.Command.Reply
		case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
			a.Outcome = outCaller
		default:
			a.Outcome, a.Text = outOther, err.Error()
		}
	}
	out, _ := json.Marshal(a)
	return out
}
