package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wbModel writes a one-table data model keyed on PK and SK, with the
// indexes GSI1 and GSI2 (keyed on GSI1PK/GSI1SK and GSI2PK/GSI2SK) and
// items, each given as attribute → string value (a "N:" prefix makes a
// number, a "SS:" one a string set of comma-separated values).
func wbModel(items ...map[string]string) string {
	var data []map[string]map[string]any
	for _, it := range items {
		av := map[string]map[string]any{}
		for k, v := range it {
			switch {
			case strings.HasPrefix(v, "N:"):
				av[k] = map[string]any{"N": strings.TrimPrefix(v, "N:")}
			case strings.HasPrefix(v, "SS:"):
				av[k] = map[string]any{"SS": strings.Split(strings.TrimPrefix(v, "SS:"), ",")}
			default:
				av[k] = map[string]any{"S": v}
			}
		}
		data = append(data, av)
	}
	gsi := func(n string) map[string]any {
		return map[string]any{"IndexName": "GSI" + n, "KeyAttributes": map[string]any{
			"PartitionKey": map[string]string{"AttributeName": "GSI" + n + "PK", "AttributeType": "S"},
			"SortKey":      map[string]string{"AttributeName": "GSI" + n + "SK", "AttributeType": "S"}},
			"Projection": map[string]string{"ProjectionType": "ALL"}}
	}
	m := map[string]any{"ModelName": "m", "DataModel": []any{map[string]any{
		"TableName": "things",
		"KeyAttributes": map[string]any{
			"PartitionKey": map[string]string{"AttributeName": "PK", "AttributeType": "S"},
			"SortKey":      map[string]string{"AttributeName": "SK", "AttributeType": "S"}},
		"GlobalSecondaryIndexes": []any{gsi("1"), gsi("2")},
		"TableData":              data,
	}}}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// shapeOf writes an entity's keys with each {name} as {}: "USER#{} |
// META", then its index keys.
func shapeOf(e *entity) string {
	out := marked(template(e.pk)) + " | " + marked(template(e.sk))
	for _, k := range e.indexes {
		out += fmt.Sprintf(" | %s: %s %s", k.ix.name, marked(template(k.pk)), marked(template(k.sk)))
	}
	return strings.ReplaceAll(out, "\x00", "{}")
}

// TestInferenceGeneralises: the item types and key templates a designer
// meant, inferred from samples that would also fit a narrower reading
// (a coincidence between two attributes, a type attribute shared by
// types, an index key met on one item, key values without digits); the
// notes name what the samples could not decide.
func TestInferenceGeneralises(t *testing.T) {
	for name, c := range map[string]struct {
		model string
		want  []string          // every entity's shapeOf, sorted
		vars  map[string]string // an entity's spelledAs, by its first item's PK
		notes []string          // on stderr and in model.go
		code  []string          // in model.go
	}{
		"a coincidence beside a prefix that names the field": {
			model: wbModel(
				map[string]string{"PK": "P#1", "SK": "METADATA", "type": "PRODUCT", "name": "Model 3", "categoryId": "1", "productId": "1", "brandId": "3", "GSI1PK": "B#3", "GSI1SK": "C#1P#1"},
				map[string]string{"PK": "P#2", "SK": "METADATA", "type": "PRODUCT", "name": "Surface", "categoryId": "2", "productId": "2", "brandId": "1", "GSI1PK": "B#1", "GSI1SK": "C#2P#2"},
				map[string]string{"PK": "CATEGORIES", "SK": "C#1", "type": "CATEGORY", "name": "Cars", "categoryId": "1"},
				map[string]string{"PK": "CATEGORIES", "SK": "C#2", "type": "CATEGORY", "name": "Laptops", "categoryId": "2"},
			),
			want:  []string{"CATEGORIES | C#{}", "P#{} | METADATA | GSI1: B#{} C#{}P#{}"},
			vars:  map[string]string{"P#1": "P#{productId} | METADATA |  | GSI1: B#{brandId} C#{categoryId}P#{productId}", "CATEGORIES": "CATEGORIES | C#{categoryId} | "},
			notes: []string{"PRODUCT: a part of PK holds the value of each of categoryId, productId on every item: taken as productId, which the prefix P names"},
		},
		"a coincidence no name decides": {
			model: wbModel(
				map[string]string{"PK": "X#1", "SK": "META", "left": "1", "right": "1"},
				map[string]string{"PK": "X#2", "SK": "META", "left": "2", "right": "2"},
			),
			want:  []string{"X#{} | META"},
			notes: []string{"a part of PK holds the value of each of left, right on every item: taken as left; the samples cannot tell which"},
		},
		"a type attribute shared by types": {
			model: wbModel(
				map[string]string{"PK": "USER#alice", "SK": "META", "Version": "1", "FullName": "Alice"},
				map[string]string{"PK": "USER#bob", "SK": "META", "Version": "1", "FullName": "Bob"},
				map[string]string{"PK": "k2Jd9sQ", "SK": "META", "Version": "5", "Title": "Meetup"},
				map[string]string{"PK": "k2Jd9sQ#ATTENDEES", "SK": "alice", "Version": "1", "FullName": "Alice"},
				map[string]string{"PK": "k2Jd9sQ#ATTENDEES", "SK": "bob", "Version": "1", "FullName": "Bob"},
			),
			want: []string{"USER#{} | META", "{} | META", "{}#ATTENDEES | {}"},
			vars: map[string]string{"USER#alice": "USER#{userID} | META | userID"},
		},
		"an index key met on one item": {
			model: wbModel(
				map[string]string{"PK": "USER#arvinje", "SK": "META", "FullName": "Arvin"},
				map[string]string{"PK": "USER#johndoe", "SK": "META", "FullName": "John"},
				map[string]string{"PK": "MEETING#k2Jd9sQ", "SK": "META", "GSI2PK": "arvinje#MEETINGS", "GSI2SK": "2021-03-09", "Title": "Meetup"},
			),
			want:  []string{"MEETING#{} | META | GSI2: {}#MEETINGS {}", "USER#{} | META"},
			notes: []string{"GSI2's GSI2PK is read from one sample item"},
		},
		"key values without digits: game modes": {
			model: wbModel(
				map[string]string{"PK": "GAME#chess", "SK": "ranked", "players": "N:10"},
				map[string]string{"PK": "GAME#chess", "SK": "casual", "players": "N:4"},
				map[string]string{"PK": "GAME#go", "SK": "ranked", "players": "N:2"},
			),
			want: []string{"GAME#{} | {}"},
		},
		"key values without digits: cities": {
			model: wbModel(
				map[string]string{"PK": "COUNTRY#USA", "SK": "Seattle", "population": "N:700000"},
				map[string]string{"PK": "COUNTRY#USA", "SK": "Portland", "population": "N:600000"},
				map[string]string{"PK": "COUNTRY#France", "SK": "Lyon", "population": "N:500000"},
				map[string]string{"PK": "COUNTRY#USA", "SK": "META", "name": "United States"},
			),
			want: []string{"COUNTRY#{} | META", "COUNTRY#{} | {}"},
		},
		"two types whose keys could be one: reported, not merged": {
			model: wbModel(
				map[string]string{"PK": "USER#alice", "SK": "META", "FullName": "Alice"},
				map[string]string{"PK": "USER#bob", "SK": "META", "FullName": "Bob"},
				map[string]string{"PK": "k2Jd9sQ", "SK": "META", "Title": "Meetup", "Attendees": "SS:alice,bob"},
				map[string]string{"PK": "k2Jd9sQ#ATTENDEES", "SK": "alice", "IsOrganizer": "yes"},
				map[string]string{"PK": "k2Jd9sQ#ATTENDEES", "SK": "bob", "IsOrganizer": "no"},
			),
			want:  []string{"USER#{} | META", "{} | META", "{}#ATTENDEES | {}"},
			notes: []string{"item types USER and ATTENDEES have keys USER#{userID} / META and {pkPart1}#ATTENDEES / {userID}, which could spell the same key: adjlist refuses two such entities on one table, so ATTENDEES is not declared"},
			code:  []string{"Attendees has no entity: its keys could spell User's", "type Attendees struct {"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			g, err := build([]byte(c.model), "model", "m.json")
			require.NoError(t, err)
			var got []string
			byPK := map[string]string{}
			tb := g.m.tables[0]
			for _, e := range slices.Concat(tb.entities, tb.undeclared) {
				got = append(got, shapeOf(e))
				byPK[e.items[0].pk] = spelledAs(e)
			}
			slices.Sort(got)
			slices.Sort(c.want)
			assert.Equal(t, c.want, got)
			for pk, w := range c.vars {
				assert.Equal(t, w, byPK[pk], pk)
			}
			files, notes, err := generate([]byte(c.model), "model", "m.json")
			require.NoError(t, err)
			stderr := strings.Join(notes, "\n")
			code := strings.Join(strings.Fields(strings.ReplaceAll(string(files[0].text), "\n//", " ")), " ")
			for _, n := range c.notes {
				assert.Contains(t, stderr, n)
				assert.Contains(t, code, n, "model.go says so")
			}
			for _, n := range c.code {
				assert.Contains(t, code, n)
			}
		})
	}
}

// TestCommunityModels: community data models (testdata/<name>/, each with
// its LICENSE and SOURCE), and the item types and key templates their
// designers meant, as their READMEs and items show them, written down
// before adjlist-gen read them: each {} a field. Types listed as
// undeclared have keys another type's could spell: adjlist-gen reports
// them rather than fold both into one entity. Where a model has too many
// types to list (Fluid Attacks' integrates, 54), count is how many are
// declared and vars gives the designer's meaning of those it reads
// hardest; misread lists the types whose sample items contradict their
// facet's alias, which inference cannot read as the designer meant.
func TestCommunityModels(t *testing.T) {
	for path, c := range map[string]struct {
		declared, undeclared []string
		count                int               // declared types, where declared is not listed
		vars                 map[string]string // spelledAs, by item type
		misread              map[string]string // item type → why its samples cannot give the designer's keys
	}{
		// Fluid Attacks' batch actions: one facet, keyed by an opaque hash
		// and ACTION#all, which its alias spells as text (every action of
		// the table has it), though "all" after a kind's name reads
		// elsewhere as a value.
		"testdata/fluidattacks/fi_async_processing-design.json": {
			declared: []string{"{} | ACTION#all"},
			vars:     map[string]string{"action_metadata": "{pkPart1} | ACTION#all | pkPart1"},
		},
		// Fluid Attacks' advisories: PLATFORM#platform#PACKAGE#pkg_name /
		// SOURCE#src#ADVISORY#id. A package name holds a ':' (axis:axis,
		// Maven's group:artifact): the alias names the whole part, so
		// "axis:" is the name's, not text before it. The advisory's id is
		// the item's own associated_advisory.
		"testdata/fluidattacks/skims-database-design.json": {
			declared: []string{"PLATFORM#{}#PACKAGE#{} | SOURCE#{}#ADVISORY#{}"},
			vars:     map[string]string{"advisories": "PLATFORM#{platform}#PACKAGE#{pkg_name} | SOURCE#{src}#ADVISORY#{associated_advisory} | platform,pkg_name,src"},
		},
		// Fluid Attacks' platform (integrates): 54 facets of users,
		// organisations, groups, findings, vulnerabilities and their
		// histories, each aliased (USER#email / STATE#iso8601utc). A
		// user's state is keyed by the user's email, which its
		// modified_by holds on every sample only because each user
		// changed their own. A trial's sort key is the text TRIAL#all. A
		// vulnerability's index keys hold kinds in capitals (ZR, STATE,
		// DELETED) between values, though VULN precedes ids elsewhere;
		// STATE and TREAT name no item type (not stakeholder_historic_state
		// or trial_metadata). Git, IP and URL roots share their keys
		// (ROOT#uuid / GROUP#name), told apart by an attribute: the IP and
		// URL ones are reported, not merged.
		"testdata/fluidattacks/integrates-database-design.json": {
			count:      53,
			undeclared: []string{"ROOT#{} | GROUP#{}", "ROOT#{} | GROUP#{}", "ROOT#{} | STATE#{}", "ROOT#{} | STATE#{}"},
			vars: map[string]string{
				"stakeholder_metadata":             "USER#{emailKey} | USER#{emailKey} | emailKey",
				"stakeholder_historic_state":       "USER#{email} | STATE#{modified_date} | email",
				"organization_access":              "USER#{email} | ORG#{organization_id} | ",
				"group_historic_access":            "USER#{email}#GROUP#{group_name} | STATE#{iso8601utc} | iso8601utc",
				"group_id":                         "GROUP_ID | GROUP#{name} | name",
				"group_unreliable_indicators":      "GROUP#{name} | GROUP#{name}#UNRELIABLEINDICATORS | name",
				"compliance_unreliable_indicators": "COMPLIANCE#UNRELIABLEINDICATOR | COMPLIANCE#UNRELIABLEINDICATOR | ",
				"event_comment":                    "CMNT#{id} | EVENT#{event_id}#GROUP#{group_name} | ",
				"toe_port_historic_state":          "PORTS#GROUP#{group_name}#ROOT#{root_id}#ADDRESS#{address}#PORT#{port} | STATE#{modified_date} | group_name,root_id,address,port",
				"trial_metadata":                   "TRIAL#{email} | TRIAL#all | ",
				"vulnerability_metadata":           "VULN#{id} | FIN#{finding_id} | id,finding_id,zrID,stateID,treatID,deletedID,releasedID,verifID | gsi_5: GROUP#{group_name} VULN#ZR#{zrID}#STATE#{stateID}#TREAT#{treatID} | gsi_6: FIN#{finding_id} VULN#DELETED#{deletedID}#RELEASED#{releasedID}#ZR#{zrID}#STATE#{stateID}#VERIF#{verifID}",
			},
			misread: map[string]string{
				"organization_unreliable_indicators": "its samples' keys are ORG#ORG#<uuid>#..., an organisation id with its own ORG# inside, which an adjlist id cannot hold unescaped",
				"credentials_metadata":               "its sort key ORG#ORG#<uuid> holds the organization_id ORG#<uuid>, '#' and all",
				"toe_lines_metadata2":                "one sample's file name holds a '#' (test/test#.config), which splits the key",
				"toe_lines_historic_metadata2":       "the same file name, in the history's partition key",
				"toe_input_metadata2":                "two samples leave the root's id out (INPUTS#ROOT#COMPONENT#...)",
				"toe_input_historic_metadata":        "its samples' partition keys have the parts of the alias in different numbers (ENTRYPOINT with and without its value, ROOT without an id)",
				"toe_input_historic_metadata2":       "split from the former by its number of parts",
			},
		},
		// Meetinger: users, meetings (by city and month, by organiser)
		// and a meeting's attendees (by user). An attendee's key
		// {meeting}#ATTENDEES / {user} could be a user's USER#{user} /
		// META, so the two cannot both be adjlist entities.
		"testdata/meetinger/Meetinger.json": {
			declared: []string{
				"USER#{} | META | GSI1: USER#{} META",
				"{} | META | GSI1: {}#{}#Meetings {}#{} | GSI2: {}#MEETINGS {}",
			},
			undeclared: []string{"{}#ATTENDEES | {} | GSI1: {}#MEETINGS {} | GSI2: {} {}"},
		},
		// bookit: sessions of a user, and users found by email, by
		// username and by the username's first letter (its model code
		// spells the keys: USER#${email}, USER#${username}, USER#${letter}).
		"testdata/bookit/data-model.json": {
			declared: []string{
				"SESSION | SESSION#{} | GSI2: USER#{} SESSION#{}",
				"USER#{} | USER#{} | GSI1: USER#{} USER#{} | GSI2: USER#{} USER#{} | GS3: USER#{} USER#{}",
			},
			vars: map[string]string{
				"session": "SESSION | SESSION#{sessionId} | sessionId,userId,createdAt | GSI2: USER#{userId} SESSION#{createdAt}",
				"user":    "USER#{userId} | USER#{userId} | userId,email,username,userID2 | GSI1: USER#{email} USER#{email} | GSI2: USER#{username} USER#{username} | GS3: USER#{userID2} USER#{username}",
			},
		},
	} {
		t.Run(path, func(t *testing.T) {
			g := built(t, path)
			shapes := func(es []*entity) []string {
				out := []string{}
				for _, e := range es {
					out = append(out, shapeOf(e))
				}
				slices.Sort(out)
				return out
			}
			slices.Sort(c.declared)
			slices.Sort(c.undeclared)
			if c.declared != nil {
				assert.Equal(t, c.declared, shapes(g.m.tables[0].entities))
			} else {
				assert.Len(t, g.m.tables[0].entities, c.count)
			}
			names := map[string]bool{}
			for _, e := range g.m.tables[0].entities {
				names[e.name] = true
			}
			for n := range c.vars {
				assert.True(t, names[n], "item type %s is declared", n)
			}
			for n := range c.misread {
				assert.True(t, names[n], "item type %s, misread, is declared", n)
			}
			if c.undeclared == nil {
				c.undeclared = []string{}
			}
			assert.Equal(t, c.undeclared, shapes(g.m.tables[0].undeclared))
			for _, e := range g.m.tables[0].entities {
				if w, ok := c.vars[e.name]; ok {
					assert.Equal(t, w, spelledAs(e), e.name)
				}
			}
		})
	}
}
