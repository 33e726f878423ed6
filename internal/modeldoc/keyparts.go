package modeldoc

import (
	"fmt"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// KeyParts are an item type's table keys as parts, and the node keys its
// index templates may name ({@self}: an edge's, child's or entity's sort
// key; {@source}: an edge's partition key).
type KeyParts struct {
	PK, SK               []Part
	Self, Target, Parent []Part
}

// Spelled draws a compiled table key (text and key fields) as parts; the
// key field shardField is drawn as the shard of n shards.
func Spelled(s []keycodec.Part, shardField string, n int) []Part {
	groups := make([][]Part, len(s))
	for i, p := range s {
		switch {
		case p.Kind != keycodec.Field:
			groups[i] = []Part{TextPart(p.Text)}
		case p.Text == shardField:
			groups[i] = []Part{{Kind: PartShard, Name: fmt.Sprintf("%s, %d", p.Text, n)}}
		default:
			groups[i] = []Part{IDPart(p.Text)}
		}
	}
	return Join(groups...)
}

// Render draws a derived key template: node keys as the item type's keys
// are written ("SKILL#<to>"), and a shard suffix for shards > 1.
func (f *KeyParts) Render(parts []keycodec.Part, shards int) []Part {
	groups := make([][]Part, 0, len(parts)+1)
	for _, p := range parts {
		switch p.Kind {
		case keycodec.Lit:
			groups = append(groups, []Part{TextPart(p.Text)})
		case keycodec.Attr:
			groups = append(groups, []Part{{Kind: PartAttribute, Name: p.Text}})
		case keycodec.Field:
			groups = append(groups, []Part{IDPart(p.Text)})
		case keycodec.Source:
			groups = append(groups, f.PK)
		case keycodec.Target:
			groups = append(groups, f.Target)
		case keycodec.Parent:
			groups = append(groups, f.Parent)
		default:
			groups = append(groups, f.Self)
		}
	}
	if shards > 1 {
		groups = append(groups, ShardPart("key", shards))
	}
	return Join(groups...)
}
