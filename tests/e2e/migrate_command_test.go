package e2e

// `mdc-server migrate`, as the Helm chart's hook Job runs it once per release
// (deploy/helm/mdc/templates/migrate-job.yaml): the real binary brings an
// empty database to the current schema and exits 0, and a second run finds
// nothing to do.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMigrateCommandAppliesEveryMigrationOnce(t *testing.T) {
	name, dbURL, err := createDatabase()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dropDatabase(name); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	files, err := filepath.Glob("../../storage/migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("storage/migrations: %v (%d files)", err, len(files))
	}

	migrate := func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, env.serverBin, "migrate")
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "MDC_DB_WAIT_SECONDS=5")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := migrate()
	if err != nil {
		t.Fatalf("mdc-server migrate on an empty database: %v\n%s", err, out)
	}
	want := "applied " + strconv.Itoa(len(files)) + " of " + strconv.Itoa(len(files)) + " migrations"
	if !strings.Contains(out, want) {
		t.Errorf("output %q lacks %q", out, want)
	}
	count, err := psql(dbURL, "SELECT count(*) FROM schema_migrations")
	if err != nil {
		t.Fatal(err)
	}
	if count != strconv.Itoa(len(files)) {
		t.Errorf("schema_migrations has %s rows, storage/migrations %d files", count, len(files))
	}

	out, err = migrate()
	if err != nil || !strings.Contains(out, "schema up to date") {
		t.Errorf("second run: %v\n%s", err, out)
	}
}
