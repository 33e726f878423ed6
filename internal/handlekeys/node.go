package handlekeys

import (
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// SortKeySpace is where node items of typ sit in their partition's sort
// key order: the exact marker, or for a self-keyed node the prefix
// "TYPE#" (its sort key is its node key). Every key the codec builds is a
// prefix of names ending in '#' followed by an escaped id, which holds no
// '#', so two item types' keys can be equal only if their prefixes are: a
// handle whose prefix equals this space would read node items as its own.
func SortKeySpace(typ, marker string) string {
	if marker == "" {
		return typ + "#"
	}
	return marker
}

// ParentKey is the parent's node key of a child's partition key pk under
// any shard layout: pk itself ("WS#acme"), or pk without its two-digit
// shard suffix ("WS#acme#07"), whatever the handle's shard count. A node
// key holds exactly one '#' (types are names, escaped ids never contain
// one), so the suffix is unambiguous; ok is false for a pk of another
// shape.
func ParentKey(pk string) (string, bool) {
	i := strings.IndexByte(pk, keycodec.Sep)
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(pk[i+1:], keycodec.Sep)
	if j < 0 {
		return pk, true
	}
	j += i + 1
	if len(pk)-j != 3 || pk[j+1] < '0' || pk[j+1] > '9' || pk[j+2] < '0' || pk[j+2] > '9' {
		return "", false
	}
	return pk[:j], true
}

// ChildIDs are the parent's and the child's id of a child of type
// childType (its sort keys start with prefix, "PROJ#") under parentType
// nodes, from its table keys pk and sk under any shard layout; ok is
// false for any other item.
func ChildIDs(parentType, childType, prefix, pk, sk string) (parentID, id string, ok bool) {
	parent, ok := ParentKey(pk)
	if !ok || !strings.HasPrefix(sk, prefix) {
		return "", "", false
	}
	typ, parentID, err := keycodec.ParseNodeKey(parent)
	if err != nil || typ != parentType {
		return "", "", false
	}
	if id, ok = keycodec.ParseID(childType, sk[len(prefix):]); !ok {
		return "", "", false
	}
	return parentID, id, true
}

// ChildKey is the primary key of child childID of type childType under
// the parent whose node key is parentPK, its partition key carrying the
// child's shard when shards > 0 ("WS#acme#07").
func ChildKey(parentPK, childType, childID string, shards int) (pk, sk string, err error) {
	if e := keycodec.CheckID(childType, childID); e != nil {
		return parentPK, "", keyError(e)
	}
	pk = parentPK
	if shards > 0 {
		pk += "#" + keycodec.Shard(childID, shards)
	}
	return pk, keycodec.Join(childID, childType), nil
}
