package mdcclient_test

// The README's "## Install", verbatim, from a clean state: a fresh
// temporary module gets the README's main.go, runs the README's ```sh block
// with bash (MDC_CHECKOUT: this checkout), builds and runs the program
// against a real mdc-server. The module proxy is asked only for what the
// client needs (google.golang.org/grpc, protobuf), normally from the module
// cache.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// readmeBlock is the ```<lang> block number n (from 0) of the README's
// section heading.
func readmeBlock(t *testing.T, heading, lang string, n int) string {
	t.Helper()
	text, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(text), "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("README: no %q section", heading)
	}
	section := string(text)[start+len(heading)+2:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	blocks := regexp.MustCompile("(?ms)^```"+lang+"\n(.*?)^```").FindAllStringSubmatch(section, -1)
	if len(blocks) <= n {
		t.Fatalf("README %s: %d %s blocks, want block %d", heading, len(blocks), lang, n)
	}
	return blocks[n][1]
}

func TestInstallAsTheReadmeSays(t *testing.T) {
	s := startMdcServer(t)
	token := s.newDeveloper(t, "go-install-")
	conn := s.dial(t, token)
	if _, err := mdcv1.NewCollectorServiceClient(conn).SaveQuotes(testContext(t), &mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{
		Timestamp: "2035-09-15T10:00:00", Quotes: []*mdcv1.QuoteItem{{NseSymbol: "TCS", QuoteData: &mdcv1.QuoteData{
			Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{LastPrice: proto.Float64(3521.5)}}}}}}); err != nil {
		t.Fatal(err)
	}
	checkout, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin")
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "main.go"), []byte(readmeBlock(t, "## Install", "go", 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "MDC_CHECKOUT="+checkout, "GOWORK=off", "GOFLAGS=",
		"PATH="+goBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = project, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("bash", "-euo", "pipefail", "-c", readmeBlock(t, "## Install", "sh", 0))
	mod, err := os.ReadFile(filepath.Join(project, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"github.com/mdc-project/mdc/clients/go v0.0.0",
		"replace github.com/mdc-project/mdc/clients/go => " + checkout + "/clients/go"} {
		if !strings.Contains(string(mod), line) {
			t.Errorf("go.mod lacks %q:\n%s", line, mod)
		}
	}
	env = append(env, "MDC_GRPC_ADDR="+s.addr, "MDC_TOKEN="+token)
	if out := run("go", "run", "."); strings.TrimSpace(out) != "TCS 3521.5" {
		t.Errorf("the README's main.go printed %q, want TCS 3521.5", out)
	}
}
