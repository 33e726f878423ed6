package modeldoc

import (
	"fmt"
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// The kinds of a [Part], as adjlist's KeyFormatPart.Kind spells them.
const (
	PartText      = "text"
	PartID        = "id"
	PartAttribute = "attribute"
	PartShard     = "shard"
)

// Part is adjlist.KeyFormatPart.
type Part struct {
	Kind, Text, Name string
}

// Format is adjlist.KeyFormat.
type Format struct {
	Attribute string
	Parts     []Part
}

// TextPart is literal text in a key format.
func TextPart(s string) Part { return Part{Kind: PartText, Text: s} }

// IDPart is an id in a key format, drawn <name>.
func IDPart(name string) Part { return Part{Kind: PartID, Name: name} }

// ShardPart is the "#<shard of what, n>" suffix of a sharded partition.
func ShardPart(what string, n int) []Part {
	return []Part{TextPart("#"), {Kind: PartShard, Name: fmt.Sprintf("shard of %s, %d", what, n)}}
}

// Join concatenates groups into new storage, merging adjacent text.
func Join(groups ...[]Part) []Part {
	var out []Part
	for _, g := range groups {
		for _, p := range g {
			switch n := len(out); {
			case p.Kind == PartText && p.Text == "":
			case p.Kind == PartText && n > 0 && out[n-1].Kind == PartText:
				out[n-1].Text += p.Text
			default:
				out = append(out, p)
			}
		}
	}
	return out
}

// Text writes parts with placeholders for the variable ones:
// "u#<userID>#follower" (adjlist.ItemType.PartitionKey).
func Text(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Kind == PartText {
			b.WriteString(p.Text)
		} else {
			b.WriteString("<" + p.Name + ">")
		}
	}
	return b.String()
}

// List writes formats with placeholders, joined by ", ".
func List(fs []Format) string {
	texts := make([]string, len(fs))
	for i, f := range fs {
		texts[i] = Text(f.Parts)
	}
	return strings.Join(texts, ", ")
}

// Spelling is parts as keycodec reads keys, for adjlist.KeyFormat.Match
// and a read's check of its targets: an id or attribute part an escaped
// id (a number's text is one), a shard part two digits.
func Spelling(parts []Part) keycodec.Spelling {
	var s keycodec.Spelling
	for _, p := range parts {
		switch p.Kind {
		case PartText:
			s = append(s, keycodec.Text(p.Text)...)
		case PartShard:
			s = append(s, keycodec.Digits()...)
		default:
			s = append(s, keycodec.ID(-1, p.Name)...)
		}
	}
	return s
}
