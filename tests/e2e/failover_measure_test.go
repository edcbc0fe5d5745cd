//go:build failover

package e2e

// The failover benchmark (bench/failover.sh; docs/performance.md,
// "Failover"): on the failover test's cluster, the ingest through the
// gateway with synchronous replication against the same without it, and
// the time writes pause over several losses of the primary's database
// machine. It measures and reports; it asserts nothing about speed. The
// ctest test `failover` does not run it (its pattern is ^TestFailover).

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMeasureFailover(t *testing.T) {
	if os.Getenv("MDC_FAILOVER_MEASURE") == "" {
		t.Skip("a benchmark, not a check: bench/failover.sh runs it (MDC_FAILOVER_MEASURE=1)")
	}
	kills, _ := strconv.Atoi(os.Getenv("MDC_FAILOVER_KILLS"))
	if kills <= 0 {
		kills = 5
	}
	phase := 10 * time.Second
	cluster := startHACluster(t)
	if _, err := psql(cluster.url("postgres"), "CREATE DATABASE mdc"); err != nil {
		t.Fatal(err)
	}
	s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
	_, token := s.NewDeveloper(t, "developer")

	// Ingest: 8 collectors, one quote per write, sync and async alternated
	// twice (the machine is shared: the order evens out drifts in load).
	rates := map[bool][]float64{}
	for round := 0; round < 2; round++ {
		for _, sync := range []bool{true, false} {
			setSynchronous(t, cluster, sync)
			w := newFailoverWriters(s, token, 8, uniqueDay(t))
			w.start()
			start := time.Now()
			time.Sleep(phase) // measuring a fixed interval, not ordering events
			n := len(w.ackedKeys())
			elapsed := time.Since(start)
			w.stop()
			rates[sync] = append(rates[sync], float64(n)/elapsed.Seconds())
		}
	}
	setSynchronous(t, cluster, true)
	syncRate, asyncRate := median(rates[true]), median(rates[false])
	fmt.Printf("ingest (8 collectors, 1 quote per write, through the gateway): synchronous %.0f writes/s %v, asynchronous %.0f writes/s %v, ratio %.2f\n",
		syncRate, roundAll(rates[true]), asyncRate, roundAll(rates[false]), syncRate/asyncRate)

	// Failover time: the longest pause between two acknowledged writes
	// around each loss.
	var pauses []time.Duration
	for k := 0; k < kills; k++ {
		cluster.waitHealthy(fmt.Sprintf("before kill %d", k+1))
		w := newFailoverWriters(s, token, 4, uniqueDay(t))
		w.start()
		w.waitAcked(t, "before the loss", 20, 60*time.Second)
		lost := leaderOf(mustStates(t, cluster))
		cluster.loseDatabaseMachine(lost)
		cluster.waitFor("a new leader", 90*time.Second, func(ms []memberState) string {
			if l := leaderOf(ms); l == "" || l == lost {
				return fmt.Sprintf("leader %q", l)
			}
			return ""
		})
		// Acknowledged after the new leader was seen: the pause is behind them.
		w.waitAckedAfter(t, "after the loss", time.Now(), 40, 90*time.Second)
		w.stop()
		pause := w.longestGap()
		pauses = append(pauses, pause)
		fmt.Printf("kill %d (%s): writes paused %v\n", k+1, lost, pause.Round(time.Millisecond))
	}
	slices.Sort(pauses)
	fmt.Printf("failover over %d kills: median %v, max %v\n", kills,
		pauses[len(pauses)/2].Round(time.Millisecond), pauses[len(pauses)-1].Round(time.Millisecond))
}

// setSynchronous turns Patroni's synchronous_mode (and strict) on or off
// and waits until the leader's synchronous_standby_names says so.
func setSynchronous(t *testing.T, c *haCluster, on bool) {
	t.Helper()
	v := strconv.FormatBool(on)
	c.patronictl("edit-config", "--force", "-s", "synchronous_mode="+v, "-s", "synchronous_mode_strict="+v)
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, err := psql(c.url("postgres"), "SHOW synchronous_standby_names")
		if err == nil && (strings.TrimSpace(got) != "") == on {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("synchronous_standby_names %q (%v) 60 s after synchronous_mode=%s", got, err, v)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func roundAll(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x + 0.5)
	}
	return out
}
