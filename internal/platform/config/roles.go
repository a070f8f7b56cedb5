package config

import (
	"fmt"
	"strings"
)

// The duties a serve node can take (--roles, docs/DECISIONS.md D93). A node with every role is the
// single-node TankWatch; a split deployment runs some nodes with one role each, joined over --bus.
const (
	// RoleGateway: the JT/T 808 and 1078 listeners, the history writer and the engines fed by its
	// commits, and the timer-driven workers (rollup outboxes, system faults, station tank gauges).
	RoleGateway = "gateway"
	// RoleAPI: the HTTP API, the console, /ws/live, /mqtt and video delivery to browsers.
	RoleAPI = "api"
	// RoleWorker: with --bus, the engines (alarms, tank and lock events, help requests, waybill
	// progress) of the partitions of cars this node holds (D97). Without a bus the one node judges its
	// own commits whatever its roles.
	RoleWorker = "worker"
)

// Roles lists every role, in the order they are documented; the default of --roles.
var Roles = []string{RoleGateway, RoleAPI, RoleWorker}

// roleList splits --roles ("" = every role).
func roleList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return Roles
	}
	var out []string
	for r := range strings.SplitSeq(s, ",") {
		if r = strings.ToLower(strings.TrimSpace(r)); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// Serves reports whether this node takes role (--roles; empty: every role).
func (c *Config) Serves(role string) bool {
	for _, r := range roleList(c.Roles) {
		if r == role {
			return true
		}
	}
	return false
}

// validateRoles refuses unknown roles and a split node that could not
// work with the others: without the bus an api node shows no terminal live and a gateway node's
// reports reach no browser; without a shared MQTT broker the alarm and help-request pushes raised on
// the gateway nodes reach no browser of the api nodes.
func (c *Config) validateRoles() error {
	list := roleList(c.Roles)
	if len(list) == 0 {
		return fmt.Errorf("--roles must name at least one of %s", strings.Join(Roles, ", "))
	}
	for _, r := range list {
		switch r {
		case RoleGateway, RoleAPI, RoleWorker:
		default:
			return fmt.Errorf("--roles: unknown role %q; the roles are %s", r, strings.Join(Roles, ", "))
		}
	}
	full := c.Serves(RoleGateway) && c.Serves(RoleAPI)
	if full && (c.Bus == "" || c.Serves(RoleWorker)) {
		return nil // one node (it judges its own commits), or a full node of several
	}
	if c.Bus == "" {
		if c.Serves(RoleAPI) {
			return fmt.Errorf("--roles %s needs --bus: without it this node would show no terminal live (they connect to the gateway nodes)", c.Roles)
		}
		return fmt.Errorf("--roles %s needs --bus: without it no browser would see this node's terminals live, and no command would reach them", c.Roles)
	}
	if c.MQTTBroker == "" {
		return fmt.Errorf("--roles %s needs --mqtt-broker: alarm and help-request pushes are raised on the gateway nodes and reach the browsers of the api nodes only through a shared broker", c.Roles)
	}
	return nil
}
