package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// unreleased returns the "## [Unreleased]" section of a Keep a Changelog
// file: from that heading to the next level-2 heading, or "" if it has none.
func unreleased(changelog string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(changelog) {
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "## [unreleased]")
			continue
		}
		if in {
			b.WriteString(line)
		}
	}
	return b.String()
}

var (
	codeSpan   = regexp.MustCompile("`+[^`]+`+")
	dottedName = regexp.MustCompile(`[\pL_][\pL\pN_]*(?:\.[\pL_][\pL\pN_]*)*`)
	typeArgs   = regexp.MustCompile(`\[[^\]]*\]`)
)

// codeNames returns every dotted name written inside a code span of text:
// "`Table.Foo(ctx)` and `Bar`" gives Table.Foo, ctx and Bar.
func codeNames(text string) map[string]bool {
	out := map[string]bool{}
	for _, span := range codeSpan.FindAllString(text, -1) {
		for _, name := range dottedName.FindAllString(span, -1) {
			out[name] = true
		}
	}
	return out
}

// names returns the spellings that cover the change apidiff reported as
// message in the package named pkg: every dotted suffix of the changed
// identifier's full name. "(*Node[N]).Get: removed" in adjlist gives Get,
// Node.Get and adjlist.Node.Get; "Options.Shards, method set of ..." gives
// Shards, Options.Shards and adjlist.Options.Shards. A subject in another
// package keeps that package's path (apidiff spells it in full); its last
// element stands for it.
func names(pkg, message string) []string {
	subject, _, _ := strings.Cut(message, ": ")
	subject = typeArgs.ReplaceAllString(subject, "")
	subject, _, _ = strings.Cut(subject, ", ")
	subject = strings.NewReplacer("(", "", ")", "", "*", "").Replace(subject)
	if i := strings.LastIndex(subject, "/"); i >= 0 {
		subject = subject[i+1:] // example.com/other.T.M: other.T.M
	} else {
		subject = pkg + "." + subject
	}
	parts := strings.Split(subject, ".")
	var out []string
	for i := len(parts) - 1; i >= 0; i-- {
		out = append(out, strings.Join(parts[i:], "."))
	}
	return out
}

// covered says whether any of the spellings is among the changelog's names.
func covered(spellings []string, changelog map[string]bool) bool {
	for _, s := range spellings {
		if changelog[s] {
			return true
		}
	}
	return false
}

var (
	releaseTag   = regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)$`)
	nextDeclared = regexp.MustCompile(`(?m)^Next version: (\d+\.\d+\.\d+)`)
)

// nextVersion is the version a release after tag must have when the API
// changed incompatibly: v0.1.0 gives 0.2.0, v1.4.2 gives 2.0.0.
func nextVersion(tag string) (string, error) {
	m := releaseTag.FindStringSubmatch(tag)
	if m == nil {
		return "", fmt.Errorf("release tag %q is not vMAJOR.MINOR.PATCH", tag)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major == 0 {
		return fmt.Sprintf("0.%d.0", minor+1), nil
	}
	return fmt.Sprintf("%d.0.0", major+1), nil
}

// declaredVersion is the version of the section's "Next version: X.Y.Z"
// line, or "".
func declaredVersion(section string) string {
	if m := nextDeclared.FindStringSubmatch(section); m != nil {
		return m[1]
	}
	return ""
}
