package keycodec

// End is how an edge endpoint's keys are spelled: a node type's node
// keys ("CRS#math204"), or a child type's refs ("WS#acme#PROJ#p1").
type End struct {
	Type   string // the node type "CRS", or the child type "PROJ"
	Parent string // a child endpoint's parent node type "WS"; "" for nodes
	// Key spells the endpoint's key from its id, its one id: "CRS#{id}",
	// or a child's ref as given.
	Key Spelling
}

// IsChild reports whether the endpoint is a collection's children.
func (p End) IsChild() bool { return p.Parent != "" }

// key is the key of endpoint id, checked.
func (p End) key(id string) (string, error) {
	k, err := p.Key.Key([]string{id}, p.Type, "partition key", MaxPartitionKeyLen)
	return k, keyError(err)
}

// Spelling is the endpoint's key as a template whose fields are named
// after side ("from", "to"): "CRS#{to}", or "WS#{to parent}#PROJ#{to}".
func (p End) Spelling(side string) []Part { return p.Key.Parts([]string{side}) }

// RangeRest is what follows the endpoint's key prefix ("CRS#", a child's
// "WS#") in its keys, as range values read it: one id (nil) for a node,
// <parent id>#PROJ#<id> for a child's ref.
func (p End) RangeRest() []Part {
	if !p.IsChild() {
		return nil
	}
	return p.Spelling("id")[1:]
}
