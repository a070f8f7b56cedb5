package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"tankwatch/internal/cluster"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/config"
)

// UseBus makes this node one of several over b instead of --bus (tests run several nodes in one
// process on one bus). Call before StartDevices; the caller closes b.
func (a *App) UseBus(b bus.Bus) { a.Devices.bus = b }

// NodeID is this node's name on the bus ("" when alone).
func (a *App) NodeID() string {
	if a.Devices.bus == nil {
		return ""
	}
	return a.Devices.bus.Node()
}

// startCluster joins the other nodes when a bus is configured (D87): this node's committed reports
// go out, theirs come into the live state, and the gateway holds terminals and sends commands
// across the nodes. Without a bus the node is alone and nothing here runs.
func (a *App) startCluster(ctx context.Context) error {
	dv := &a.Devices
	if dv.bus == nil && a.Cfg.Bus == "" {
		return nil
	}
	if dv.bus == nil {
		node := a.Cfg.NodeID
		if node == "" {
			var b [3]byte
			_, _ = rand.Read(b[:])
			node = "node-" + hex.EncodeToString(b[:])
		}
		nb, err := bus.DialNATS(ctx, bus.NATSConfig{URL: a.Cfg.Bus, Node: node, Prefix: a.Cfg.BusPrefix, Log: a.Log})
		if err != nil {
			return err
		}
		dv.bus, dv.closeBus = nb, func() { _ = nb.Close() }
	}
	prefix := a.busPrefix()
	// only a node that serves terminals answers for them; every node forwards its commands (below)
	gw := dv.Gateway
	if a.Cfg.JT808 == "" || !a.Cfg.Serves(config.RoleGateway) {
		gw = nil
	}
	cc := cluster.Config{HeartbeatWindow: a.Cfg.JT808HeartbeatWindow, Gaps: cluster.StoreGaps(a.DB)}
	if a.Cfg.Serves(config.RoleWorker) {
		cc.Worker = engines{a}
	}
	n := cluster.New(dv.bus, prefix, cc, dv.Live.Apply, gw, a.Log)
	if err := n.Start(ctx); err != nil {
		a.stopBus()
		return fmt.Errorf("bus: %w", err)
	}
	dv.partitioned.Store(n.Partitioned())
	if gw == nil {
		// no session is ever held here, so every command (command page, help-request answers, car
		// passwords) goes through the node that holds the terminal
		dv.Gateway.UseCluster(n)
	}
	dv.Cluster = n
	dv.Writer.Subscribe(n.Committed)
	a.registry.MustRegister(n.Collectors()...)
	a.Log.Info("joined the other nodes on the bus", "node", dv.bus.Node(), "bus", a.Cfg.Bus, "prefix", prefix, "roles", a.roles())
	if a.Cfg.MQTTBroker == "" {
		// alarms and help requests are pushed by the node that committed the report: through an
		// embedded broker they reach only the browsers connected to that node
		a.Log.Warn("several nodes without --mqtt-broker: alarm, help-request and message pushes reach only the browsers of the node that raised them")
	}
	return nil
}

// busPrefix is the first token of the bus's subjects.
func (a *App) busPrefix() string {
	if p, ok := a.Devices.bus.(interface{ Prefix() string }); ok {
		return p.Prefix()
	}
	return "tw"
}

// stopCluster leaves the bus once the gateway and the writer stopped.
func (a *App) stopCluster() {
	if a.Devices.Cluster != nil {
		a.Devices.Cluster.Stop()
		a.Devices.Cluster = nil
	}
	a.stopBus()
}

func (a *App) stopBus() {
	if a.Devices.closeBus != nil {
		a.Devices.closeBus()
		a.Devices.closeBus = nil
	}
}
