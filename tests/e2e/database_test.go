package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// createDatabase creates mdc_e2e_<random> through the superuser URL and
// returns its name and URL.
func createDatabase() (name, dbURL string, err error) {
	suffix, err := randomHex(6)
	if err != nil {
		return "", "", err
	}
	name = "mdc_e2e_" + suffix
	u, err := url.Parse(env.superDBURL)
	if err != nil {
		return "", "", fmt.Errorf("MDC_TEST_DATABASE_URL: %w", err)
	}
	if _, err := psql(env.superDBURL, "CREATE DATABASE "+name); err != nil {
		return "", "", fmt.Errorf("creating database %s: %w", name, err)
	}
	u.Path = "/" + name
	return name, u.String(), nil
}

// dropDatabase drops the database, ending any session still connected.
func dropDatabase(name string) error {
	_, err := psql(env.superDBURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	return err
}

// SQL runs query in the stack's database through psql and returns its
// output, unaligned and without headers: one line per row, columns joined
// by "|", e.g. "2" for SELECT count(*). For tests that must check what is
// stored.
func (s *Stack) SQL(t *testing.T, query string) string {
	t.Helper()
	out, err := psql(s.dbURL, query)
	if err != nil {
		t.Fatalf("SQL %q: %v", query, err)
	}
	return out
}

// psql runs one SQL command with the psql client on the PATH and returns its
// trimmed output.
func psql(dbURL, query string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, psqlPath(), "--no-psqlrc", "--quiet", "--tuples-only",
		"--no-align", "--set=ON_ERROR_STOP=1", "--dbname="+dbURL, "--command="+query)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("psql: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// psqlPath is psql from the PATH, else PostgreSQL 15's own.
func psqlPath() string {
	if p, err := exec.LookPath("psql"); err == nil {
		return p
	}
	return "/usr/lib/postgresql/15/bin/psql"
}
