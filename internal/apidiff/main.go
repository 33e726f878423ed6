// Command apidiff reports how the exported API of adjlist's public packages
// changed since a base revision, and fails when an incompatible change is not
// in CHANGELOG.md. `make apidiff` runs it, and CI runs it on every commit:
// importers find out about a breaking change from the changelog, with its
// migration, not from their compiler.
//
// It compares every public package of the module (every package but
// internal/..., examples/..., cmd/... and package main) at the base revision
// with the working tree. The base is the newest release tag reachable from
// HEAD (v0.1.0, say), so that every incompatible change since the release
// must be in the changelog; before the first release it is HEAD~1;
// APIDIFF_BASE or -base overrides it. Compared with a release vX.Y.Z, an
// incompatible change also needs the next version named in the Unreleased
// section, a line "Next version: 0.(Y+1).0" (X.Y+1 before 1.0, X+1 from
// 1.0 on): a release with a breaking change is a new minor (major) version,
// never a patch. The comparison is made
// using golang.org/x/exp/apidiff, and prints each package's changes,
// incompatible and compatible. The base tree is extracted with git archive
// into a temporary directory, removed afterwards.
//
// An incompatible change is covered when CHANGELOG.md's "## [Unreleased]"
// section names it in backticks: a code span there holds the changed
// identifier's name, or a dotted suffix of its full name. For a change
// reported as "(*Table).Foo: removed" any of `Foo`, `Table.Foo` or
// `adjlist.Table.Foo` covers it (`Table.Foo(ctx)` too: each dotted name in a
// code span counts); for a struct field "Options.Shards", `Shards` or
// `Options.Shards`; for a removed package, the last element of its path. The
// exit status is 1 when an incompatible change is not covered, 2 when the
// comparison cannot be made. When the default base HEAD~1 does not exist (the
// first commit, a shallow clone) it says so and exits 0; an explicit base that
// does not exist is an error.
//
// It is a module of its own so that golang.org/x/exp stays out of the
// library's go.mod: importers of adjlist never download it.
//
//	make apidiff                          # HEAD~1 against the working tree
//	make apidiff APIDIFF_BASE=origin/main # another base
//	cd internal/apidiff && go test ./...  # its own tests
package main

import (
	"errors"
	"flag"
	"fmt"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/exp/apidiff"
	"golang.org/x/tools/go/packages"
)

const defaultBase = "HEAD~1"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command, returning its exit status: 0 when every incompatible
// change is covered, 1 when one is not, 2 when the comparison fails.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("apidiff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("base", os.Getenv("APIDIFF_BASE"), "git revision to compare the working tree with (default HEAD~1; env APIDIFF_BASE)")
	dir := fs.String("C", ".", "a directory inside the repository to check")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "apidiff:", err)
		return 2
	}
	root, err := git(*dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return fail(err)
	}
	rev := *base
	release := ""
	if rev == "" {
		rev = defaultBase
		if tag, err := git(root, "describe", "--tags", "--abbrev=0", "--match", "v[0-9]*.[0-9]*.[0-9]*", "HEAD"); err == nil && tag != "" {
			rev, release = tag, tag
		}
	}
	commit, err := git(root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		if *base == "" {
			fmt.Fprintf(stdout, "apidiff: no %s (the first commit, or a shallow clone): nothing to compare with\n", rev)
			return 0
		}
		return fail(fmt.Errorf("base revision %q not found", rev))
	}

	tmp, err := os.MkdirTemp("", "adjlist-apidiff-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	if err := extract(root, commit, tmp); err != nil {
		return fail(err)
	}
	old, err := load(tmp)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", rev, err))
	}
	cur, err := load(root)
	if err != nil {
		return fail(fmt.Errorf("working tree: %w", err))
	}
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fail(err)
	}

	fmt.Fprintf(stdout, "apidiff: %s (%.12s) against the working tree\n", rev, commit)
	section := unreleased(string(changelog))
	diffs := diff(old, cur)
	missing := report(stdout, diffs, section)
	if missing > 0 {
		fmt.Fprintf(stdout, "apidiff: %d incompatible change(s) not in CHANGELOG.md's ## [Unreleased] section: name each in backticks there, with its migration\n", missing)
		return 1
	}
	if release != "" && incompatible(diffs) > 0 {
		want, err := nextVersion(release)
		if err != nil {
			return fail(err)
		}
		if got := declaredVersion(section); got != want {
			fmt.Fprintf(stdout, "apidiff: incompatible changes since %s make the next release %s: write the line \"Next version: %s\" in CHANGELOG.md's ## [Unreleased] section (found %q)\n", release, want, want, got)
			return 1
		}
	}
	return 0
}

// git runs git in dir and returns its output, trimmed.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// extract writes the tree of commit into dir (git archive | tar).
func extract(root, commit, dir string) error {
	archive := exec.Command("git", "archive", "--format=tar", commit)
	archive.Dir = root
	archive.Stderr = os.Stderr
	untar := exec.Command("tar", "-x", "-C", dir)
	untar.Stderr = os.Stderr
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		untar.Wait()
		return fmt.Errorf("git archive %s: %w", commit, err)
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("tar: %w", err)
	}
	return nil
}

// public says whether the package with this import path, in the module
// with path mod, is part of the API: not under internal, examples or cmd.
func public(mod, path string) bool {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, mod), "/")
	for _, elem := range strings.Split(rel, "/") {
		switch elem {
		case "internal", "examples", "cmd", "testdata":
			return false
		}
	}
	return true
}

// load type-checks the public packages of the module in dir, keyed by
// import path. Names are listed first without compiling anything, so only
// the public packages and their dependencies are built for their types.
func load(dir string) (map[string]*types.Package, error) {
	cfg := &packages.Config{Dir: dir, Mode: packages.NeedName | packages.NeedModule, Env: append(os.Environ(), "GOWORK=off")}
	listed, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range listed {
		if p.Module != nil && p.Name != "main" && public(p.Module.Path, p.PkgPath) {
			paths = append(paths, p.PkgPath)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no public packages in %s", dir)
	}
	cfg.Mode = packages.NeedName | packages.NeedTypes
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*types.Package, len(pkgs))
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		out[p.PkgPath] = p.Types
	}
	return out, nil
}

// A pkgDiff is one package's changes; Removed and Added mark a package that
// only one side has.
type pkgDiff struct {
	Path           string
	Removed, Added bool
	Changes        []apidiff.Change
}

// diff compares the packages of two trees, sorted by import path.
func diff(old, cur map[string]*types.Package) []pkgDiff {
	var paths []string
	for p := range old {
		paths = append(paths, p)
	}
	for p := range cur {
		if old[p] == nil {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []pkgDiff
	for _, p := range paths {
		switch o, n := old[p], cur[p]; {
		case n == nil:
			out = append(out, pkgDiff{Path: p, Removed: true})
		case o == nil:
			out = append(out, pkgDiff{Path: p, Added: true})
		default:
			// apidiff reports a generic type's method once per
			// instantiation it meets, in the same words: once is enough.
			out = append(out, pkgDiff{Path: p, Changes: slices.Compact(apidiff.Changes(o, n).Changes)})
		}
	}
	return out
}

// incompatible counts the incompatible changes of diffs.
func incompatible(diffs []pkgDiff) int {
	n := 0
	for _, d := range diffs {
		if d.Removed {
			n++
		}
		for _, c := range d.Changes {
			if !c.Compatible {
				n++
			}
		}
	}
	return n
}

// report prints each package's changes, marking the incompatible ones the
// changelog section does not name, and returns how many there are.
func report(w io.Writer, diffs []pkgDiff, section string) int {
	spans := codeNames(section)
	missing := 0
	mark := func(names []string) string {
		if covered(names, spans) {
			return "in CHANGELOG"
		}
		missing++
		return "NOT IN CHANGELOG"
	}
	for _, d := range diffs {
		pkg := d.Path[strings.LastIndex(d.Path, "/")+1:]
		switch {
		case d.Removed:
			fmt.Fprintf(w, "%s: package removed (incompatible; %s)\n", d.Path, mark([]string{pkg}))
			continue
		case d.Added:
			fmt.Fprintf(w, "%s: package added (compatible)\n", d.Path)
			continue
		case len(d.Changes) == 0:
			fmt.Fprintf(w, "%s: no changes\n", d.Path)
			continue
		}
		fmt.Fprintf(w, "%s:\n", d.Path)
		for _, c := range d.Changes {
			if c.Compatible {
				fmt.Fprintf(w, "  compatible:   %s\n", c.Message)
			} else {
				fmt.Fprintf(w, "  incompatible: %s (%s)\n", c.Message, mark(names(pkg, c.Message)))
			}
		}
	}
	return missing
}
