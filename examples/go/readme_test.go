package main

// Runs the Go quick starts verbatim against a real mdc-server: the ```go block
// under "## Quick start" in clients/go/README.md and the one under "## Clients"
// in the top-level README.md; and the streams example under "## Streams" in
// clients/go/README.md. Each block is wrapped in package main with the
// imports clients/go/README.md lists and `func main() { ctx :=
// context.Background(); <block> }`, written into a temporary module that
// requires this checkout's clients/go (replace), and run with `go run` with
// MDC_GRPC_ADDR and MDC_TOKEN set.

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// quickStarts are the README files (relative to the repository root) and the
// section whose first ```go block is the quick start.
var quickStarts = []struct{ readme, heading string }{
	{"clients/go/README.md", "## Quick start"},
	{"README.md", "## Clients"},
}

// readmePrograms are the blocks run: the quick starts, each printing the
// entry TCS it saved and read back, and the streams example of
// clients/go/README.md, printing the quote it watched and the day it
// replayed. Each output ends with the last call's error, <nil>.
var readmePrograms = []struct {
	readme, heading string
	want            []*regexp.Regexp
}{
	{quickStarts[0].readme, quickStarts[0].heading, []*regexp.Regexp{regexp.MustCompile(`nse_symbol:\s*"TCS"`)}},
	{quickStarts[1].readme, quickStarts[1].heading, []*regexp.Regexp{
		regexp.MustCompile(`nse_symbol:\s*"TCS"`),
		// No quote is stored: the cross-section lists both as missing.
		regexp.MustCompile(`(?m)^cross-section: 0 quotes, missing \[TCS INFY\] <nil>$`),
	}},
	{"clients/go/README.md", "## Streams", []*regexp.Regexp{
		regexp.MustCompile(`(?m)^watched TCS 3522$`),
		regexp.MustCompile(`(?m)^replayed TCS 2025-12-31 03:46:00 \+0000 UTC$`),
	}},
}

// readmeImports are the imports clients/go/README.md lists for the blocks,
// with those of the wrapper, by the name a block uses: a program imports
// those its block uses (Go refuses unused imports) and context, which the
// wrapper uses.
var readmeImports = []struct{ name, path string }{
	{"context", `"context"`},
	{"fmt", `"fmt"`},
	{"log", `"log"`},
	{"os", `"os"`},
	{"time", `"time"`},
	{"proto", `"google.golang.org/protobuf/proto"`},
	{"mdcclient", `"github.com/mdc-project/mdc/clients/go/mdcclient"`},
	{"mdcv1", `mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"`},
}

// importsFor is the import declaration of a program made of block.
func importsFor(block string) string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, imp := range readmeImports {
		if imp.name == "context" || regexp.MustCompile(`\b`+imp.name+`\.`).MatchString(block) {
			b.WriteString("\t" + imp.path + "\n")
		}
	}
	b.WriteString(")\n")
	return b.String()
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// quickStart is the first ```go block of the section heading (up to the next
// "## " heading) of readme.
func quickStart(t *testing.T, readme, heading string) string {
	t.Helper()
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimRight(l, " \t\r") == heading {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s: no %q section", readme, heading)
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "## ") {
			end = i
			break
		}
	}
	section := strings.Join(lines[start+1:end], "\n") + "\n"
	m := regexp.MustCompile("(?ms)^```go\n(.*?)^```").FindStringSubmatch(section)
	if m == nil {
		t.Fatalf("%s: no go block under %s", readme, heading)
	}
	return m[1]
}

func TestReadmeQuickStartsAreShort(t *testing.T) {
	root := repoRoot(t)
	for _, q := range quickStarts {
		block := quickStart(t, filepath.Join(root, q.readme), q.heading)
		if n := len(strings.Split(strings.TrimSpace(block), "\n")); n > 12 {
			t.Errorf("%s: the quick start has %d lines, at most 12 wanted", q.readme, n)
		}
	}
}

func TestReadmeQuickStartsRun(t *testing.T) {
	root := repoRoot(t)
	addr, adminToken := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	admin, err := mdcclient.Dial(addr, adminToken)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	dev, err := mdcv1.NewAdminServiceClient(admin).CreateDeveloper(ctx,
		&mdcv1.CreateDeveloperRequest{Username: "go-readme", Role: "developer"})
	if err != nil {
		t.Fatalf("CreateDeveloper: %v", err)
	}

	// One module for both programs: module readme, this checkout's client
	// module, and examples/go's requirements and go.sum (the same
	// dependencies, so nothing is fetched).
	dir := t.TempDir()
	goMod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAllString(string(goMod), "module readme")
	mod = regexp.MustCompile(`(?m)^replace github\.com/mdc-project/mdc/clients/go => .*$`).
		ReplaceAllLiteralString(mod, "replace github.com/mdc-project/mdc/clients/go => "+filepath.Join(root, "clients", "go"))
	writeFile(t, filepath.Join(dir, "go.mod"), mod)
	goSum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(goSum))

	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	for i, q := range readmePrograms {
		t.Run(q.readme+" "+q.heading, func(t *testing.T) {
			block := quickStart(t, filepath.Join(root, q.readme), q.heading)
			prog := filepath.Join(dir, "cmd"+string(rune('a'+i)))
			if err := os.Mkdir(prog, 0o755); err != nil {
				t.Fatal(err)
			}
			src := "// Code from " + q.readme + ", section " + q.heading + ".\n\npackage main\n\n" +
				importsFor(block) + "\nfunc main() {\n\tctx := context.Background()\n" + block + "}\n"
			writeFile(t, filepath.Join(prog, "main.go"), src)

			cmd := exec.CommandContext(ctx, goBin, "run", "./"+filepath.Base(prog))
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "MDC_GRPC_ADDR="+addr, "MDC_TOKEN="+dev.GetToken(),
				"GOPROXY=off", "GOWORK=off") // the dependencies are examples/go's: in the module cache
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("go run of the %s block of %s: %v\n%s\nstdout:\n%s\nprogram:\n%s",
					q.heading, q.readme, err, stderr.String(), stdout.String(), src)
			}
			out := stdout.String()
			t.Logf("output:\n%s", out)
			// (Text format of the entries: protobuf-go varies its spacing.)
			for _, want := range q.want {
				if !want.MatchString(out) {
					t.Errorf("%s %s: the output lacks %s:\n%s", q.readme, q.heading, want, out)
				}
			}
			if !strings.HasSuffix(strings.TrimSpace(out), "<nil>") {
				t.Errorf("%s %s: the last call returned an error:\n%s", q.readme, q.heading, out)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
