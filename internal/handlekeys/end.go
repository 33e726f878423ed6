package handlekeys

import (
	"fmt"
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// End is how an edge endpoint's keys are spelled: a node type's node
// keys ("CRS#math204"), or a child type's refs ("WS#acme#PROJ#p1").
type End struct {
	Type   string // the node type "CRS", or the child type "PROJ"
	Parent string // a child endpoint's parent node type "WS"; "" for nodes
}

// IsChild reports whether the endpoint is a collection's children.
func (p End) IsChild() bool { return p.Parent != "" }

// Key is the key of endpoint id: a node key, or a child's ref as given,
// checked.
func (p End) Key(id string) (string, error) {
	if !p.IsChild() {
		k, err := keycodec.NodeKey(p.Type, id, keycodec.MaxPartitionKeyLen)
		return k, keyError(err)
	}
	if _, _, err := SplitRef(p.Parent, p.Type, id); err != nil {
		return "", err
	}
	return id, nil
}

// Parse is the id of the endpoint whose key is key; ok is false, and id
// "", for the key of another type or a malformed one.
func (p End) Parse(key string) (id string, ok bool) {
	if !p.IsChild() {
		// ParseNodeKey's result for a key of type p.Type, without its
		// search for the type: this runs for every edge item read.
		if len(key) <= len(p.Type) || key[len(p.Type)] != keycodec.Sep || key[:len(p.Type)] != p.Type {
			return "", false
		}
		if id, ok := keycodec.ParseID(p.Type, key[len(p.Type)+1:]); ok {
			return id, true
		}
		return "", false
	}
	if _, _, err := SplitRef(p.Parent, p.Type, key); err != nil {
		return "", false
	}
	return key, true
}

// KeyPrefix is what every key of the endpoint starts with: "CRS#", or a
// child's parent type's "WS#".
func (p End) KeyPrefix() string {
	if p.IsChild() {
		return p.Parent + "#"
	}
	return p.Type + "#"
}

// Spelling is the endpoint's key as a template whose fields are named
// after side ("from", "to"): "CRS#{to}", or "WS#{to parent}#PROJ#{to}".
func (p End) Spelling(side string) []keycodec.Part {
	if p.IsChild() {
		return []keycodec.Part{{Kind: keycodec.Lit, Text: p.Parent + "#"}, {Kind: keycodec.Field, Text: side + " parent"}, {Kind: keycodec.Lit, Text: "#" + p.Type + "#"}, {Kind: keycodec.Field, Text: side}}
	}
	return []keycodec.Part{{Kind: keycodec.Lit, Text: p.Type + "#"}, {Kind: keycodec.Field, Text: side}}
}

// RangeRest is what follows the endpoint's key prefix ("CRS#", a child's
// "WS#") in its keys, as range values read it: one id (nil) for a node,
// <parent id>#PROJ#<id> for a child's ref.
func (p End) RangeRest() []keycodec.Part {
	if !p.IsChild() {
		return nil
	}
	return p.Spelling("id")[1:]
}

// SortKey is the sort key of an edge whose target is endpoint to, with
// label ("" unlabelled) and labelText the label's text in its keys
// ("ENROLL#", or ""): "ENROLL#CRS#math204", "TAGGED#WS#acme#PROJ#p1", at
// most MaxSortKeyLen bytes.
func (p End) SortKey(label, labelText, to string) (string, error) {
	if p.IsChild() {
		ref, err := p.Key(to)
		if err != nil {
			return "", err
		}
		sk := labelText + ref
		return sk, keyError(keycodec.CheckLen(p.Type, "sort key", sk, keycodec.MaxSortKeyLen))
	}
	if label != "" {
		k, err := keycodec.EdgeKey(label, p.Type, to, keycodec.MaxSortKeyLen)
		return k, keyError(err)
	}
	if err := keycodec.CheckID(p.Type, to); err != nil {
		return "", keyError(err)
	}
	sk := keycodec.Join(to, p.Type)
	return sk, keyError(keycodec.CheckLen(p.Type, "sort key", sk, keycodec.MaxSortKeyLen))
}

// SplitRef is the parent's and the child's id of ref, a ref of a
// childType child of parentType; anything else is a key error.
func SplitRef(parentType, childType, ref string) (parentID, childID string, err error) {
	n := len(parentType) + 1
	i := strings.IndexByte(ref[min(n, len(ref)):], keycodec.Sep)
	if len(ref) > keycodec.MaxPartitionKeyLen || !strings.HasPrefix(ref, parentType+"#") || i < 0 {
		return "", "", badRef(parentType, childType, ref)
	}
	pt, parentID, perr := keycodec.ParseNodeKey(ref[:n+i])
	ct, childID, cerr := keycodec.ParseNodeKey(ref[n+i+1:])
	if perr != nil || cerr != nil || pt != parentType || ct != childType {
		return "", "", badRef(parentType, childType, ref)
	}
	return parentID, childID, nil
}

func badRef(parentType, childType, ref string) error {
	return KeyError(&keycodec.Error{Name: childType, ID: ref, Reason: fmt.Sprintf("not a ref of a %s child of %s (%s#<id>#%s#<id>)", childType, parentType, parentType, childType)})
}

// EdgeIDs are the endpoint ids of an edge from src to dst whose sort keys
// start with prefix ("ENROLL#CRS#"), the target's key at labelLen, from
// its table keys pk and sk; ok is false for any other item.
func EdgeIDs(src, dst End, prefix string, labelLen int, pk, sk string) (from, to string, ok bool) {
	if !strings.HasPrefix(sk, prefix) {
		return "", "", false
	}
	if from, ok = src.Parse(pk); !ok {
		return "", "", false
	}
	if dst.IsChild() {
		to, ok = dst.Parse(sk[labelLen:])
		return from, to, ok
	}
	// The prefix holds the target's type: only the id is left to parse.
	to, ok = keycodec.ParseID(dst.Type, sk[len(prefix):])
	return from, to, ok
}
