package schema

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CheckCreate reports the first production setting of o that DynamoDB cannot
// take for t, before any request; the caller wraps it in its sentinel.
func CheckCreate(t *Table, o *Options) error {
	if o.RecoveryPeriodInDays != 0 && !o.PointInTimeRecovery {
		return fmt.Errorf("RecoveryPeriodInDays %d without PointInTimeRecovery", o.RecoveryPeriodInDays)
	}
	return CheckSettings(o, func(field, name string) error { return checkGlobalIndex(t, field, name) })
}

// CheckSettings reports the first of o's projection (of the inverted
// index; "" is ALL), stream view, recovery, encryption, tag and throughput
// settings DynamoDB cannot take, for CreateTable and package
// cloudformation alike; globalIndex refuses a name of o's field that is
// not a global secondary index.
func CheckSettings(o *Options, globalIndex func(field, name string) error) error {
	if err := CheckProjection(cmp.Or(o.Projection, types.ProjectionTypeAll), o.NonKeyAttributes); err != nil {
		return err
	}
	if v := o.StreamViewType; v != "" && !slices.Contains(v.Values(), v) {
		return fmt.Errorf("StreamViewType %q", v)
	}
	if o.RecoveryPeriodInDays < 0 || o.RecoveryPeriodInDays > 35 {
		return fmt.Errorf("RecoveryPeriodInDays %d, want 1 to 35", o.RecoveryPeriodInDays)
	}
	if err := checkSSE(o.SSESpecification); err != nil {
		return err
	}
	if _, ok := o.Tags[""]; ok {
		return fmt.Errorf("a tag with an empty key")
	}
	if v := o.OnDemandThroughput; v != nil {
		if err := checkUnits("OnDemandThroughput", v.MaxReadRequestUnits, v.MaxWriteRequestUnits); err != nil {
			return err
		}
	}
	if v := o.WarmThroughput; v != nil {
		if err := checkUnits("WarmThroughput", v.ReadUnitsPerSecond, v.WriteUnitsPerSecond); err != nil {
			return err
		}
	}
	err := checkIndexes("IndexOnDemandThroughput", o.IndexOnDemandThroughput, globalIndex,
		func(v types.OnDemandThroughput) (read, write *int64) {
			return v.MaxReadRequestUnits, v.MaxWriteRequestUnits
		})
	if err != nil {
		return err
	}
	return checkIndexes("IndexWarmThroughput", o.IndexWarmThroughput, globalIndex,
		func(v types.WarmThroughput) (read, write *int64) { return v.ReadUnitsPerSecond, v.WriteUnitsPerSecond })
}

func checkIndexes[V any](field string, byName map[string]V, globalIndex func(field, name string) error, units func(V) (read, write *int64)) error {
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		if err := globalIndex(field, name); err != nil {
			return err
		}
		read, write := units(byName[name])
		if err := checkUnits(field+"["+name+"]", read, write); err != nil {
			return err
		}
	}
	return nil
}

func checkGlobalIndex(t *Table, field, name string) error {
	for _, ix := range t.Indexes {
		if ix.Name == name && ix.Local {
			return fmt.Errorf("%s: %q is a local secondary index, which has the table's throughput", field, name)
		}
		if ix.Name == name {
			return nil
		}
	}
	return fmt.Errorf("%s: table %s has no global secondary index %q", field, t.Name, name)
}

func checkUnits(field string, read, write *int64) error {
	if read == nil && write == nil {
		return fmt.Errorf("%s sets neither read nor write units", field)
	}
	for _, v := range []*int64{read, write} {
		if v != nil && *v < 1 {
			return fmt.Errorf("%s: %d units, want at least 1", field, *v)
		}
	}
	return nil
}

func checkSSE(s *types.SSESpecification) error {
	switch {
	case s == nil:
		return nil
	case s.SSEType != "" && s.SSEType != types.SSETypeKms:
		return fmt.Errorf("SSESpecification: SSEType %q, want KMS", s.SSEType)
	case s.KMSMasterKeyId != nil && *s.KMSMasterKeyId == "":
		return fmt.Errorf("SSESpecification: empty KMSMasterKeyId")
	case (s.SSEType != "" || s.KMSMasterKeyId != nil) && !aws.ToBool(s.Enabled):
		return fmt.Errorf("SSESpecification: SSEType or KMSMasterKeyId without Enabled true")
	}
	return nil
}

// CheckProjection refuses an index projection DynamoDB refuses: one not
// ALL, KEYS_ONLY or INCLUDE, or INCLUDE without nonKey attributes. The
// callers give "" its default (ALL) first.
func CheckProjection(p types.ProjectionType, nonKey []string) error {
	switch {
	case !slices.Contains(p.Values(), p):
		return fmt.Errorf("projection %q", p)
	case p == types.ProjectionTypeInclude && len(nonKey) == 0:
		return errors.New("INCLUDE projection without NonKeyAttributes")
	}
	return nil
}
