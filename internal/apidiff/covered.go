package main

import (
	"regexp"
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
