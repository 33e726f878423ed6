package bench

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/logging"

	"github.com/adjlist/adjlist"
)

// clientOp is one operation of the client-side set: the canned responses
// it needs and how to run it on an implementation. run returns the
// operation's result so that it is used (and compared in tests).
type clientOp struct {
	name   string
	bodies map[string][]byte
	run    func(ctx context.Context, p Patterns) (any, error)
}

type loaded[P, C any] struct {
	Parent   P
	Children []C
}

var clientOps = []clientOp{
	{"put", map[string][]byte{TargetPutItem: EmptyBody()}, func(ctx context.Context, p Patterns) (any, error) {
		return nil, p.PutEdge(ctx, "a91", "math204", FixtureEnrollment)
	}},
	{"get", map[string][]byte{TargetGetItem: GetEdgeBody()}, func(ctx context.Context, p Patterns) (any, error) {
		return p.GetEdge(ctx, "a91", "math204")
	}},
	{"from1", map[string][]byte{TargetQuery: ForwardBody(1)}, func(ctx context.Context, p Patterns) (any, error) {
		return p.From(ctx, "a91")
	}},
	{"from100", map[string][]byte{TargetQuery: ForwardBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		return p.From(ctx, "a91")
	}},
	{"to100", map[string][]byte{TargetQuery: ReverseBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		return p.To(ctx, "math204")
	}},
	{"loadnode100", map[string][]byte{TargetQuery: StudentPartitionBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		st, edges, err := p.LoadStudent(ctx, "a91")
		return loaded[Student, Edge]{st, edges}, err
	}},
	{"collection100", map[string][]byte{TargetQuery: WorkspacePartitionBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		ws, children, err := p.LoadWorkspace(ctx, "acme")
		return loaded[Workspace, Child]{ws, children}, err
	}},
	{"range100", map[string][]byte{TargetQuery: ProjectsBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		return p.ProjectsBetween(ctx, "acme", ProjectID(0), ProjectID(99))
	}},
	{"filter100", map[string][]byte{TargetQuery: ReverseBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		return p.ToWithGrade(ctx, "math204", FixtureEnrollment.Grade)
	}},
	// The template-keyed set (entity.go): adjlist.Entity with the keys of
	// the AWS guide's social network and gaming profile designs.
	{"entityput", map[string][]byte{TargetPutItem: EmptyBody()}, func(ctx context.Context, p Patterns) (any, error) {
		return nil, p.PutFollower(ctx, "12345", "34567", FixtureFollower)
	}},
	{"entityget", map[string][]byte{TargetGetItem: GetFollowerBody()}, func(ctx context.Context, p Patterns) (any, error) {
		return p.GetFollower(ctx, "12345", "34567")
	}},
	{"entitylist100", map[string][]byte{TargetQuery: FollowersBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		return p.Followers(ctx, "12345")
	}},
	{"loadtypes100", map[string][]byte{TargetQuery: PlayerPartitionBody(100)}, func(ctx context.Context, p Patterns) (any, error) {
		meta, items, err := p.LoadPlayer(ctx, "player001")
		return loaded[[]MetaItem, InvItem]{meta, items}, err
	}},
}

// implNames orders the columns: the hand-written floor first, so that
// benchstat's deltas (-col /impl) are relative to it.
var implNames = []string{"sdk", "adjlist", "guregu"}

func newImpl(name string, client *dynamodb.Client) Patterns {
	switch name {
	case "sdk":
		return &SDK{Client: client, Name: Table}
	case "adjlist":
		return NewAdjList(client, Table)
	case "guregu":
		return NewGuregu(client, Table)
	}
	panic("unknown implementation " + name)
}

var sink any

// measure times run in b's loop, reporting allocations and CPU time. One
// untimed call first warms per-type caches (reflection plans) alike for
// every implementation and checks the operation works.
func measure(b *testing.B, run func() (any, error)) {
	if _, err := run(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := StartCPU()
	for i := 0; i < b.N; i++ {
		v, err := run()
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
	cpu.Stop(b)
}

// BenchmarkClient measures client-side cost: each operation through the
// SDK's full middleware stack (serialization, SigV4 signing, endpoint
// resolution, retry bookkeeping, CRC-32 validation, deserialization), with
// the network replaced by canned responses, byte-identical for the three
// implementations.
func BenchmarkClient(b *testing.B) {
	ctx := context.Background()
	order := rotate(implNames, *clientRotate)
	for _, op := range clientOps {
		b.Run("op="+op.name, func(b *testing.B) {
			for _, name := range order {
				b.Run("impl="+name, func(b *testing.B) {
					p := newImpl(name, NewCannedClient(NewCanned(op.bodies)))
					measure(b, func() (any, error) { return op.run(ctx, p) })
				})
			}
		})
	}
}

// clientRotate shifts the order in which BenchmarkClient runs the
// implementations of each operation. run.sh passes the pass number, so that
// over its passes each implementation runs first, second and last about
// equally often and no position effect favours one of them.
var clientRotate = flag.Int("client.rotate", 0, "client: rotate the implementations' order by this many places")

// rotate returns names shifted left by n places (right, for a negative n).
func rotate(names []string, n int) []string {
	n = (n%len(names) + len(names)) % len(names)
	return append(slices.Clone(names[n:]), names[:n]...)
}

// Keys: inputs in variables, so nothing is constant-folded.
var (
	keyType, keyLabel, keyTo = "STU", "ENROLL", "CRS"
	keyID, keyEscID          = "a91", "x#1%"
	nodeKeyStr, edgeKeyStr   = "STU#a91", "ENROLL#CRS#math204"
	sinkStr                  string

	// The library's key codec is reached through its handles.
	keyTable    = adjlist.NewTable(nil, "bench")
	keyStudents = adjlist.NewNode[struct{}](keyTable, keyType, "PROFILE")
	keyEnrolled = adjlist.NewEdge[struct{}](keyStudents, keyLabel, adjlist.NewNode[struct{}](keyTable, keyTo, "METADATA"))
)

func nodeKey(id string) (string, error) {
	pk, _, err := keyStudents.Key(id)
	return pk, err
}

func edgeSortKey(to string) (string, error) {
	_, sk, err := keyEnrolled.Key(keyID, to)
	return sk, err
}

// BenchmarkKeys measures the key codec against the hand-written
// equivalent (concatenation and strings.Cut, which neither validates nor
// escapes). guregu/dynamo has no key codec: keys are the caller's strings.
func BenchmarkKeys(b *testing.B) {
	type impl struct {
		name string
		fn   func() (string, error)
	}
	ops := []struct {
		name  string
		impls []impl
	}{
		{"nodekey", []impl{
			{"sdk", func() (string, error) { return keyType + "#" + keyID, nil }},
			{"adjlist", func() (string, error) { return nodeKey(keyID) }},
		}},
		{"edgekey", []impl{
			{"sdk", func() (string, error) { return keyLabel + "#" + keyTo + "#" + keyID, nil }},
			{"adjlist", func() (string, error) { return edgeSortKey(keyID) }},
		}},
		{"nodekey-escaped", []impl{
			{"sdk", func() (string, error) {
				return keyType + "#" + strings.NewReplacer("%", "%25", "#", "%23").Replace(keyEscID), nil
			}},
			{"adjlist", func() (string, error) { return nodeKey(keyEscID) }},
		}},
		{"parsenode", []impl{
			{"sdk", func() (string, error) { _, id, _ := strings.Cut(nodeKeyStr, "#"); return id, nil }},
			{"adjlist", func() (string, error) {
				v, _, err := keyStudents.Decode(adjlist.Item{"PK": &types.AttributeValueMemberS{Value: nodeKeyStr}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}})
				return v.ID, err
			}},
		}},
		{"parseedge", []impl{
			{"sdk", func() (string, error) {
				_, rest, _ := strings.Cut(edgeKeyStr, "#")
				_, id, _ := strings.Cut(rest, "#")
				return id, nil
			}},
			{"adjlist", func() (string, error) {
				v, _, err := keyEnrolled.Decode(adjlist.Item{"PK": &types.AttributeValueMemberS{Value: nodeKeyStr}, "SK": &types.AttributeValueMemberS{Value: edgeKeyStr}})
				return v.To, err
			}},
		}},
	}
	for _, op := range ops {
		b.Run("op="+op.name, func(b *testing.B) {
			for _, im := range op.impls {
				b.Run("impl="+im.name, func(b *testing.B) {
					b.ReportAllocs()
					b.ResetTimer()
					cpu := StartCPU()
					for i := 0; i < b.N; i++ {
						s, err := im.fn()
						if err != nil {
							b.Fatal(err)
						}
						sinkStr = s
					}
					cpu.Stop(b)
				})
			}
		})
	}
}

// TestKeysAgree checks that the hand-written key code gives the library's
// keys for the benchmark inputs.
func TestKeysAgree(t *testing.T) {
	if k, _ := nodeKey(keyID); k != keyType+"#"+keyID {
		t.Errorf("node key = %q", k)
	}
	if k, _ := nodeKey(keyEscID); k != "STU#x%231%25" {
		t.Errorf("node key escaped = %q", k)
	}
	if k, _ := edgeSortKey(keyID); k != "ENROLL#CRS#a91" {
		t.Errorf("edge sort key = %q", k)
	}
}

// TestSameRequestsSameResults runs every client-side operation on the
// three implementations, recording what each sends, and checks that they
// return equal results from the same canned bytes and send equivalent
// requests: same table, index, item or key, and the same conditions once
// placeholders are resolved (guregu's KeyConditions are turned into the
// expression they mean). It also checks that the SDK logged nothing, so
// every response passed its CRC-32 check.
func TestSameRequestsSameResults(t *testing.T) {
	ctx := context.Background()
	for _, op := range clientOps {
		t.Run(op.name, func(t *testing.T) {
			var (
				results  = map[string]any{}
				requests = map[string]canonicalRequest{}
			)
			for _, name := range implNames {
				var logged []string
				c := NewCanned(op.bodies)
				var bodies []string
				c.Record = func(target string, body []byte) { bodies = append(bodies, target+" "+string(body)) }
				client := NewCannedClient(c, func(o *dynamodb.Options) {
					o.Logger = logging.LoggerFunc(func(_ logging.Classification, format string, v ...any) {
						logged = append(logged, fmt.Sprintf(format, v...))
					})
				})
				v, err := op.run(ctx, newImpl(name, client))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(logged) > 0 {
					t.Errorf("%s: SDK logged %q", name, logged)
				}
				if len(bodies) != 1 {
					t.Fatalf("%s: %d requests, want 1", name, len(bodies))
				}
				results[name] = v
				requests[name] = canonical(t, bodies[0])
			}
			for _, name := range implNames[1:] {
				if !reflect.DeepEqual(results[name], results["sdk"]) {
					t.Errorf("%s result differs from sdk:\n%+v\n%+v", name, results[name], results["sdk"])
				}
				if got, want := requests[name], requests["sdk"]; !reflect.DeepEqual(got, want) {
					t.Errorf("%s request differs from sdk:\n%+v\n%+v", name, got, want)
				}
			}
			if reflect.ValueOf(results["sdk"]).Kind() == reflect.Slice && reflect.ValueOf(results["sdk"]).Len() == 0 {
				t.Errorf("empty result")
			}
		})
	}
}

// canonicalRequest is what must agree between implementations.
type canonicalRequest struct {
	Target, Table, Index string
	Item, Key            string   // JSON, keys sorted
	Conditions           []string // AND-terms, placeholders resolved, sorted
}

var (
	placeholder = regexp.MustCompile(`[#:][A-Za-z0-9_]+`)
	between     = regexp.MustCompile(`BETWEEN (\S+) AND`)
)

func canonical(t *testing.T, recorded string) canonicalRequest {
	t.Helper()
	target, body, _ := strings.Cut(recorded, " ")
	var in struct {
		TableName, IndexName                     string
		Item, Key                                map[string]map[string]string
		KeyConditionExpression, FilterExpression string
		ConditionExpression                      string
		ExpressionAttributeNames                 map[string]string
		ExpressionAttributeValues                map[string]map[string]string
		KeyConditions                            map[string]struct {
			AttributeValueList []map[string]string
			ComparisonOperator string
		}
	}
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	js := func(v any) string {
		if reflect.ValueOf(v).Len() == 0 {
			return ""
		}
		b, _ := json.Marshal(v) // maps marshal with sorted keys
		return string(b)
	}
	c := canonicalRequest{Target: target, Table: in.TableName, Index: in.IndexName, Item: js(in.Item), Key: js(in.Key)}
	val := func(v map[string]string) string {
		for k, x := range v {
			return k + ":" + x
		}
		return ""
	}
	squeeze := strings.NewReplacer(" ", "", "(", "", ")", "")
	resolve := func(expr string) {
		if expr == "" {
			return
		}
		// BETWEEN's own AND is not a conjunction.
		expr = between.ReplaceAllString(expr, "BETWEEN $1 &&")
		for _, term := range strings.Split(expr, " AND ") {
			term = placeholder.ReplaceAllStringFunc(term, func(p string) string {
				if p[0] == '#' {
					return in.ExpressionAttributeNames[p]
				}
				return val(in.ExpressionAttributeValues[p])
			})
			c.Conditions = append(c.Conditions, squeeze.Replace(term))
		}
	}
	resolve(in.KeyConditionExpression)
	resolve(in.FilterExpression)
	resolve(in.ConditionExpression)
	for name, kc := range in.KeyConditions {
		switch kc.ComparisonOperator {
		case "EQ":
			c.Conditions = append(c.Conditions, squeeze.Replace(name+" = "+val(kc.AttributeValueList[0])))
		case "BETWEEN":
			c.Conditions = append(c.Conditions, squeeze.Replace(name+" BETWEEN "+val(kc.AttributeValueList[0])+" && "+val(kc.AttributeValueList[1])))
		case "BEGINS_WITH":
			c.Conditions = append(c.Conditions, squeeze.Replace("begins_with("+name+", "+val(kc.AttributeValueList[0])+")"))
		default:
			t.Fatalf("KeyConditions operator %s", kc.ComparisonOperator)
		}
	}
	slices.Sort(c.Conditions)
	return c
}

// TestCannedCRCIsValidated proves the canned responses go through the
// SDK's CRC-32 check: a response whose header does not match its body is
// reported (the SDK logs the failed check when it closes the body).
func TestCannedCRCIsValidated(t *testing.T) {
	c := NewCanned(map[string][]byte{TargetGetItem: GetEdgeBody()})
	r := c.responses[TargetGetItem]
	r.crc = "12345"
	c.responses[TargetGetItem] = r
	var mu sync.Mutex
	var logged []string
	client := NewCannedClient(c, func(o *dynamodb.Options) {
		o.Logger = logging.LoggerFunc(func(_ logging.Classification, format string, v ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, v...))
		})
	})
	_, err := (&SDK{Client: client, Name: Table}).GetEdge(context.Background(), "a91", "math204")
	if err == nil && len(logged) == 0 {
		t.Fatal("a wrong X-Amz-Crc32 went unnoticed")
	}
	t.Logf("wrong CRC: err=%v logged=%q", err, logged)
}
