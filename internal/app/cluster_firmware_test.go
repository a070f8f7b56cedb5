package app_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/firmware"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/blob"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// TestFirmwareAcrossNodes: a package uploaded on node B reaches a terminal connected to node A (D136).
// Each node has a data folder of its own, as nodes on different machines do: before D136 the package
// was a file in B's folder and A's gateway failed the job. The terminal's reassembled package has the
// uploaded bytes.
func TestFirmwareAcrossNodes(t *testing.T) {
	t.Parallel()
	cl := newCluster(t, "twf")
	a, b := cl.node("a", config.Config{}), cl.node("b", config.Config{})
	if a.App.Cfg.Data == b.App.Cfg.Data {
		t.Fatal("the nodes share a data folder")
	}
	adminB := b.Login("admin", "admin123")
	car, termID := demoCar(t, b, adminB)

	var (
		mu  sync.Mutex
		got []byte
	)
	f, err := sim.Start(context.Background(), sim.Config{Gateway: a.App.Devices.GatewayAddr(), Vehicles: 1, Interval: 2 * time.Second,
		Speedup: 20, Seed: 7, AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond, HelpEvery: 1000 * time.Hour,
		OnUpgrade: func(_ string, u *jt808.Upgrade) { mu.Lock(); got = bytes.Clone(u.Package); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	waitFor(t, "the terminal to log in on A", func() bool { return a.App.Devices.Gateway.Online(termID) })

	data := make([]byte, 3*blob.ChunkSize+123)
	_, _ = io.ReadFull(rand.NewChaCha8([32]byte{42}), data)
	r := b.Upload("/base-info-app/upgradePack/upload", adminB, map[string]string{"kind": "0", "manufacturer": "70111", "version": "TW-808T 9.9.9"},
		"tw808t-9.9.9.bin", data)
	if r.Success != 1 {
		t.Fatalf("upload on B: %d %s", r.Status, r.Body)
	}
	var up firmware.PackageView
	r.Decode(&up)
	b.MustOK("POST", "/base-info-app/upgradePack/push", adminB, map[string]any{"packageId": up.ID, "carIds": []int64{car.ID}})
	var job firmware.JobView
	waitFor(t, "the terminal on A to acknowledge the package uploaded on B", func() bool {
		var jobs httpx.Page[firmware.JobView]
		b.MustOK("POST", "/base-info-app/upgradePack/jobs", adminB, map[string]any{}).Decode(&jobs)
		if len(jobs.List) > 0 {
			job = jobs.List[0]
		}
		if job.Status == firmware.StatusFailed {
			t.Fatalf("job failed: %+v", job)
		}
		return job.Status == firmware.StatusAcked
	})
	mu.Lock()
	defer mu.Unlock()
	if sha256.Sum256(got) != sha256.Sum256(data) || job.Result != 0 || f.Firmware(0) != "TW-808T 9.9.9" {
		t.Fatalf("the terminal got %d bytes (want %d, the same SHA-256), result %d, runs %q", len(got), len(data), job.Result, f.Firmware(0))
	}
}
