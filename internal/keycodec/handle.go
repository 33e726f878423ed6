package keycodec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
)

// Ends are an edge item type's endpoints, as its index key templates name
// them.
type Ends struct {
	Src, Dst End
	Label    string // the label's text in the sort key, "ENROLL#", or ""
}

// Parts spells the variable parts of an item type's index key templates
// from ids: Prefixes are its node keys' static prefixes, Ends its
// endpoints (nil but for an edge), Enc the table's encoder ([ValueText]).
type Parts struct {
	Prefixes *Ctx
	Ends     *Ends
	// Parent spells a nested collection's {@parent}, the parent child's
	// ref; nil for a node parent, whose part is its node key.
	Parent *End
	Enc    *attributevalue.Encoder
}

// PartKey is variable part p's text for id: an escaped id, or a node key
// (a child endpoint's ref as given; an edge's {@self}: label and target).
func (s Parts) PartKey(p Part, id string) (string, error) {
	if e := s.Ends; e != nil {
		switch p.Kind {
		case Source:
			return e.Src.key(id)
		case Target:
			return e.Dst.key(id)
		case Self:
			key, err := e.Dst.key(id)
			return e.Label + key, err
		}
	}
	if p.Kind == Parent && s.Parent != nil {
		return s.Parent.key(id)
	}
	if err := CheckID(String([]Part{p}), id); err != nil {
		return "", errs.Key(err)
	}
	if p.Kind == Field {
		return Escape(id), nil
	}
	return s.Prefixes.Node(p.Kind) + Escape(id), nil
}

// Fill renders parts with values in place of their variable parts, as a
// write renders them from the item ([Spelling.Value]). n is how many
// values it took; too few is a [Takes] error.
func (s Parts) Fill(parts []Part, values []any) (key string, n int, err error) {
	if names := s.Names(parts); len(values) < len(names) {
		return "", 0, Takes(names, nil, len(values))
	}
	var sb strings.Builder
	for _, p := range parts {
		if !p.Variable() {
			sb.WriteString(p.Text)
			continue
		}
		v := values[n]
		n++
		if p.Kind == Attr {
			s, err := s.valueText(p.Text, v)
			if err != nil {
				return "", n, err
			}
			sb.WriteString(s)
			continue
		}
		id, ok := v.(string)
		if !ok {
			return "", n, fmt.Errorf("%s takes an id string, got %T", String([]Part{p}), v)
		}
		key, err := s.PartKey(p, id)
		if err != nil {
			return "", n, err
		}
		sb.WriteString(key)
	}
	return sb.String(), n, nil
}

// Names are the names of the values parts take, as ByIndex does: an
// attribute's or field's name, or a node key's "id", "parent id", "child
// id", "source id", "target ref".
func (s Parts) Names(parts []Part) []string {
	var out []string
	for _, p := range parts {
		if p.Variable() {
			out = append(out, s.name(p))
		}
	}
	return out
}

func (s Parts) name(p Part) string {
	e := s.Ends
	switch {
	case p.Kind == Attr || p.Kind == Field:
		return p.Text
	case p.Kind == Parent:
		return "parent id"
	case e != nil && p.Kind == Source:
		return endName("source", e.Src)
	case e != nil && (p.Kind == Target || p.Kind == Self):
		return endName("target", e.Dst)
	case p.Kind == Self && s.Prefixes != nil && s.Prefixes.Parent != "":
		return "child id"
	}
	return "id"
}

func endName(role string, e End) string {
	if e.IsChild() {
		return role + " ref"
	}
	return role + " id"
}

// Takes is the error of given values for required then optionally
// leading optional ones: "takes 2 to 4 values (tour, region, then
// optionally round, score), 5 given".
func Takes(required, optional []string, given int) error {
	if len(required)+len(optional) == 0 {
		return fmt.Errorf("takes no values, %d given", given)
	}
	count := strconv.Itoa(len(required))
	if len(optional) > 0 {
		count += " to " + strconv.Itoa(len(required)+len(optional))
	}
	noun := "values"
	if len(required)+len(optional) == 1 {
		noun = "value"
	}
	names := strings.Join(required, ", ")
	if len(optional) > 0 {
		if names != "" {
			names += ", then "
		}
		names += "optionally " + strings.Join(optional, ", ")
	}
	return fmt.Errorf("takes %s %s (%s), %d given", count, noun, names, given)
}

// valueText is [ValueText] of a query value, which must not be empty.
func (s Parts) valueText(name string, v any) (string, error) {
	text, present, err := ValueText(s.Enc, name, v)
	if err == nil && !present {
		err = fmt.Errorf("empty value for %s", name)
	}
	return text, err
}

// IndexRest is index key spelling sk after its [StaticPrefix] as range
// values read it ([Spelling.Rest]): a node key is its type prefix (the
// static prefix holds the first's) and an id, or a child endpoint's ref.
func (s Parts) IndexRest(sk Spelling) Spelling {
	var out Spelling
	for i, p := range sk.Rest(0) {
		if p.kind != node {
			out = append(out, p)
			continue
		}
		k := Kind(p.n)
		if i > 0 {
			out = append(out, Text(s.Prefixes.Node(k))...)
		}
		switch e := s.Ends; {
		case e != nil && k == Source && e.Src.IsChild():
			out = append(out, e.Src.Key...)
		case e != nil && (k == Target || k == Self) && e.Dst.IsChild():
			out = append(out, e.Dst.Key...)
		default:
			out = append(out, ID(0, "")...)
		}
	}
	return out
}

// End is how an edge endpoint's keys are spelled: a node type's node
// keys ("CRS#math204"), or a child type's refs ("WS#acme#PROJ#p1").
type End struct {
	Type   string   // the node type "CRS", or the child type "PROJ"
	Parent string   // a child endpoint's parent node type "WS"; "" for nodes
	Key    Spelling // from its one id: "CRS#{id}", or a child's ref as given
}

// IsChild reports whether the endpoint is a collection's children.
func (p End) IsChild() bool { return p.Parent != "" }

func (p End) key(id string) (string, error) {
	return p.Key.Key([]string{id}, p.Type, "partition key", MaxPartitionKeyLen)
}
