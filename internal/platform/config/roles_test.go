package config

import (
	"strings"
	"testing"
)

func TestRoles(t *testing.T) {
	c, err := parse(t, nil)
	if err != nil || !c.Serves(RoleGateway) || !c.Serves(RoleAPI) || !c.Serves(RoleWorker) {
		t.Fatalf("default: every role: %q %v", c.Roles, err)
	}
	if c, err = parse(t, split(), "--roles", "worker"); err != nil || !c.Serves(RoleWorker) || c.Serves(RoleGateway) {
		t.Fatalf("worker alone: %q %v", c.Roles, err)
	}
	split := split()
	c, err = parse(t, merge(split, map[string]string{"TANKWATCH_ROLES": "api"}))
	if err != nil || c.Serves(RoleGateway) || !c.Serves(RoleAPI) {
		t.Fatalf("env api: %q %v", c.Roles, err)
	}
	c, err = parse(t, split, "--roles", " Gateway ")
	if err != nil || !c.Serves(RoleGateway) || c.Serves(RoleAPI) {
		t.Fatalf("flag gateway: %q %v", c.Roles, err)
	}
	if c, err = parse(t, nil, "--roles", "api,gateway"); err != nil || !c.Serves(RoleGateway) || !c.Serves(RoleAPI) {
		t.Fatalf("both roles need no bus: %v", err)
	}
	for _, tc := range []struct {
		env  map[string]string
		arg  string
		want string
	}{
		{split, "gateway,ui", `unknown role "ui"`},
		{split, ",", "at least one"},
		{map[string]string{"TANKWATCH_BUS": "nats://127.0.0.1:4222"}, "gateway,api", "needs --mqtt-broker"},
		{map[string]string{"TANKWATCH_MQTT_BROKER": "tcp://127.0.0.1:1883"}, "worker", "needs --bus"},
		{map[string]string{"TANKWATCH_MQTT_BROKER": "tcp://127.0.0.1:1883"}, "api", "needs --bus"},
		{map[string]string{"TANKWATCH_MQTT_BROKER": "tcp://127.0.0.1:1883"}, "gateway", "needs --bus"},
		{map[string]string{"TANKWATCH_BUS": "nats://127.0.0.1:4222"}, "api", "needs --mqtt-broker"},
	} {
		if _, err := parse(t, tc.env, "--roles", tc.arg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--roles %q: %v, want an error with %q", tc.arg, err, tc.want)
		}
	}
}

func split() map[string]string {
	return map[string]string{"TANKWATCH_BUS": "nats://127.0.0.1:4222", "TANKWATCH_MQTT_BROKER": "tcp://127.0.0.1:1883"}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
