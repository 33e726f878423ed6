package walks

import "context"

// Missing confirms the items a walk needed and did not meet (keys, with
// pending's needers of each): they are read again, and the items needing
// a missing one too, by get (strongly consistent), and found is called
// for each needer of a missing item with the needing item as read now
// (nil when it is gone), to report it if it still needs the item. from is
// a needer's key.
func Missing[K comparable, N any](ctx context.Context, keys []K, pending map[K][]N, from func(N) K,
	get func(context.Context, []K) (map[K]Item, error), found func(missing K, w N, needing Item)) error {
	if len(keys) == 0 {
		return nil
	}
	there, err := get(ctx, keys)
	if err != nil {
		return err
	}
	var missing, needers []K
	for _, k := range keys {
		if there[k] == nil {
			missing = append(missing, k)
			for _, w := range pending[k] {
				needers = append(needers, from(w))
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	needing, err := get(ctx, needers)
	if err != nil {
		return err
	}
	for _, k := range missing {
		for _, w := range pending[k] {
			found(k, w, needing[from(w)])
		}
	}
	return nil
}
