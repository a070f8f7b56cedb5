package sim

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"
)

const gatewayProcessEnv = "TANKWATCH_SIM_FAKE_GATEWAY"

func TestMain(m *testing.M) {
	if os.Getenv(gatewayProcessEnv) == "1" {
		os.Exit(gatewayProcess())
	}
	os.Exit(m.Run())
}

// gatewayProcess runs the fake gateway in a child process (so its memory is not counted with the
// terminals'), prints its address and serves until stdin closes.
func gatewayProcess() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	g := &fakeGateway{ln: ln, conns: map[string]net.Conn{}, quiet: true}
	g.wg.Add(1)
	go g.accept()
	fmt.Println(ln.Addr())
	bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// TestMemoryPerTerminal starts TANKWATCH_SIM_TERMINALS terminals (e.g. 10000) against a fake gateway
// in another process and logs the heap and stack held per terminal once all are authenticated and
// reporting. It measures; it asserts nothing about the figure.
//
//	TANKWATCH_SIM_TERMINALS=10000 go test ./internal/sim -run TestMemoryPerTerminal -v -timeout 10m
func TestMemoryPerTerminal(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TANKWATCH_SIM_TERMINALS"))
	if n <= 0 {
		t.Skip("set TANKWATCH_SIM_TERMINALS=10000 to measure memory per terminal")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), gatewayProcessEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g0 := runtime.NumGoroutine()
	f, err := Start(context.Background(), Config{Gateway: addr[:len(addr)-1], Vehicles: n, Seed: 1, Speedup: 10, Epoch: workEpoch}) // well behaved: all stay connected
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	deadline := time.Now().Add(5 * time.Minute)
	for s := f.Stats(); s.Authenticated < int64(n) || s.Acked < 3*int64(n); s = f.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("not all terminals authenticated and reporting: %v", s)
		}
		if testing.Verbose() && time.Now().Second()%5 == 0 {
			t.Log(s)
		}
		time.Sleep(200 * time.Millisecond) // polling the counters, not a timing assertion
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapInuse-before.HeapInuse) / float64(n)
	stack := float64(after.StackInuse-before.StackInuse) / float64(n)
	t.Logf("%d terminals: %.1f KiB heap + %.1f KiB goroutine stacks per terminal (%.1f KiB), %.1f goroutines per terminal; %v",
		n, heap/1024, stack/1024, (heap+stack)/1024, float64(runtime.NumGoroutine()-g0)/float64(n), f.Stats())
}
