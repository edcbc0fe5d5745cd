package mdcclient_test

// clients/go/README.md lists every RPC and every helper: its table of the
// RPCs is what the mdc.v1 descriptors give now (each method's request and
// answer types, token, backtest clock and retry), and its section on
// package mdcclient names every exported identifier of the package.
//
//	go test ./mdcclient -run TestReadme -update-readme   # in clients/go: rewrite the table

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the table of RPCs in clients/go/README.md")

const (
	readmePath    = "../README.md"
	tableStart    = "<!-- The table below is generated from the mdc.v1 descriptors by mdcclient/readme_test.go. -->\n"
	tableEnd      = "<!-- End of the generated table. -->\n"
	helperSection = "## The helper package"
)

// helperOf is the mdcclient function to call instead of the RPC itself:
// the iterator of each paged read, the resuming stream of each streaming
// RPC. The table needs one for each.
var helperOf = map[string]string{
	mdcv1.AdminService_ListDevelopers_FullMethodName:         "AllDevelopers",
	mdcv1.DashboardService_ListRuns_FullMethodName:           "AllRuns",
	mdcv1.DashboardService_ListOrders_FullMethodName:         "AllOrders",
	mdcv1.DeveloperService_GetQuoteTimeline_FullMethodName:   "AllQuotes",
	mdcv1.DeveloperService_GetNiftyTimeline_FullMethodName:   "AllNiftyQuotes",
	mdcv1.StreamService_WatchQuotes_FullMethodName:           "WatchQuotes",
	mdcv1.StreamService_WatchNifty_FullMethodName:            "WatchNifty",
	mdcv1.StreamService_WatchShortlists_FullMethodName:       "WatchShortlists",
	mdcv1.StreamService_ReplayDay_FullMethodName:             "ReplayDay",
	mdcv1.DeveloperService_GetQuotes_FullMethodName:          "QuotesAt",
	mdcv1.ExportService_ExportQuotes_FullMethodName:          "ExportQuotes",
	mdcv1.ExportService_ExportNifty_FullMethodName:           "ExportNifty",
	mdcv1.ExportService_ExportShortlists_FullMethodName:      "ExportShortlists",
	mdcv1.ExportService_ExportCandles_FullMethodName:         "ExportCandles",
	mdcv1.ImportService_ImportQuotes_FullMethodName:          "ImportFile",
	mdcv1.ImportService_ImportNifty_FullMethodName:           "ImportFile",
	mdcv1.ImportService_ImportShortlists_FullMethodName:      "ImportFile",
	mdcv1.AdminService_ImportInstruments_FullMethodName:      "ImportInstrumentsFile",
	mdcv1.AdminService_ImportCorporateActions_FullMethodName: "ImportCorporateActionsFile",
}

// goType is how Go code names the generated type of message d.
func goType(d protoreflect.MessageDescriptor) string {
	switch pkg := d.ParentFile().Package(); pkg {
	case "mdc.v1":
		return "*mdcv1." + string(d.Name())
	case "google.protobuf":
		return "*" + strings.ToLower(string(d.Name())) + "pb." + string(d.Name())
	default:
		return "*" + string(d.FullName())
	}
}

var (
	tokenOf = map[mdcv1.Access]string{mdcv1.Access_ACCESS_PUBLIC: "none",
		mdcv1.Access_ACCESS_DEVELOPER: "developer", mdcv1.Access_ACCESS_ADMIN: "admin"}
	clockOf = map[mdcv1.BacktestClock]string{mdcv1.BacktestClock_BACKTEST_CLOCK_IGNORED: "ignored",
		mdcv1.BacktestClock_BACKTEST_CLOCK_CUTS: "cuts", mdcv1.BacktestClock_BACKTEST_CLOCK_FORBIDS: "cuts, FUTURE_READ"}
)

// methodsTable is the README's table of the RPCs, one per service, from the
// descriptors.
func methodsTable(t *testing.T) string {
	var files []protoreflect.FileDescriptor
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(f protoreflect.FileDescriptor) bool {
		files = append(files, f)
		return true
	})
	slices.SortFunc(files, func(a, b protoreflect.FileDescriptor) int { return strings.Compare(a.Path(), b.Path()) })
	var b strings.Builder
	b.WriteString(tableStart)
	for _, f := range files {
		for i := 0; i < f.Services().Len(); i++ {
			s := f.Services().Get(i)
			fmt.Fprintf(&b, "\n**%s** (`mdcv1.New%sClient(conn)`):\n\n", s.Name(), s.Name())
			b.WriteString("| Method | Request → answer | Token | Backtest clock | Retried on UNAVAILABLE |\n|---|---|---|---|---|\n")
			for j := 0; j < s.Methods().Len(); j++ {
				b.WriteString(methodRow(t, s.Methods().Get(j)))
			}
		}
	}
	b.WriteString("\n" + tableEnd)
	return b.String()
}

func methodRow(t *testing.T, m protoreflect.MethodDescriptor) string {
	name := fullMethod(m)
	policy, _ := proto.GetExtension(m.Options(), mdcv1.E_Rpc).(*mdcv1.RpcPolicy)
	method := "`" + string(m.Name()) + "`"
	if helper, ok := helperOf[name]; ok {
		method += fmt.Sprintf(" (`mdcclient.%s`)", helper)
	} else if m.IsStreamingServer() || m.Input().Fields().ByName("page_token") != nil {
		t.Errorf("%s is paged or streams but helperOf names no helper for it", name)
	}
	answer := "`" + goType(m.Output()) + "`"
	retried := map[bool]string{true: "yes", false: "no"}[mdcclient.Retryable(name)]
	if m.IsStreamingServer() {
		answer = "stream of " + answer
		retried = "resumes from its cursor"
	}
	token, clock := tokenOf[policy.GetAccess()], clockOf[policy.GetBacktestClock()]
	if token == "" || clock == "" {
		t.Errorf("%s: option (mdc.v1.rpc) lacks access or backtest_clock: %v", name, policy)
	}
	return fmt.Sprintf("| %s | `%s` → %s | %s | %s | %s |\n", method, goType(m.Input()), answer, token, clock, retried)
}

func TestReadmeListsEveryRPC(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start, end := strings.Index(readme, tableStart), strings.Index(readme, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("%s lacks the markers of the generated table:\n%s%s", readmePath, tableStart, tableEnd)
	}
	current, want := readme[start:end+len(tableEnd)], methodsTable(t)
	if current == want {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(readmePath, []byte(readme[:start]+want+readme[end+len(tableEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the table of RPCs in %s is stale; run `go test ./mdcclient -run TestReadme -update-readme` in clients/go. Want:\n%s", readmePath, want)
}

// exportedNames is every exported identifier of package mdcclient:
// functions, types, variables, constants and the methods of exported types.
func exportedNames(t *testing.T) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range pkgs["mdcclient"].Files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || ast.IsExported(receiverType(d.Recv))) {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names = append(names, s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return !ast.IsExported(n) })
}

func receiverType(recv *ast.FieldList) string {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func TestReadmeNamesEveryHelper(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start := strings.Index(readme, "\n"+helperSection)
	if start < 0 {
		t.Fatalf("%s has no %q section", readmePath, helperSection)
	}
	section := readme[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	// Code: fenced blocks, then inline spans of what is left.
	fenced := regexp.MustCompile("(?s)```.*?```")
	codes := fenced.FindAllString(section, -1)
	codes = append(codes, regexp.MustCompile("`[^`]+`").FindAllString(fenced.ReplaceAllString(section, ""), -1)...)
	named := map[string]bool{}
	for _, code := range codes {
		for _, word := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`).FindAllString(code, -1) {
			named[word] = true
		}
	}
	names := exportedNames(t)
	if len(names) < 40 {
		t.Fatalf("found only %d exported names in package mdcclient: %v", len(names), names)
	}
	for _, name := range names {
		if !named[name] {
			t.Errorf("%s, section %q, does not name mdcclient's %s in code", readmePath, helperSection, name)
		}
	}
}
