package schema

import (
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Check reports the first production setting of o that DynamoDB cannot
// take for t, before any request; the caller wraps it in its sentinel.
func Check(t *Table, o *Options) error {
	switch {
	case o.RecoveryPeriodInDays != 0 && !o.PointInTimeRecovery:
		return fmt.Errorf("RecoveryPeriodInDays %d without PointInTimeRecovery", o.RecoveryPeriodInDays)
	case o.RecoveryPeriodInDays < 0 || o.RecoveryPeriodInDays > 35:
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
	for _, name := range slices.Sorted(maps.Keys(o.IndexOnDemandThroughput)) {
		v := o.IndexOnDemandThroughput[name]
		if err := checkGlobalIndex(t, "IndexOnDemandThroughput", name); err != nil {
			return err
		}
		if err := checkUnits("IndexOnDemandThroughput["+name+"]", v.MaxReadRequestUnits, v.MaxWriteRequestUnits); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(o.IndexWarmThroughput)) {
		v := o.IndexWarmThroughput[name]
		if err := checkGlobalIndex(t, "IndexWarmThroughput", name); err != nil {
			return err
		}
		if err := checkUnits("IndexWarmThroughput["+name+"]", v.ReadUnitsPerSecond, v.WriteUnitsPerSecond); err != nil {
			return err
		}
	}
	return nil
}

// checkGlobalIndex reports an error unless name is a global secondary
// index of t.
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

// checkUnits reports an error unless one of read and write is set and
// every one set is at least 1.
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

// checkSSE reports an error for an encryption setting DynamoDB cannot
// take.
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
