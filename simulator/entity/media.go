package entity

import (
	"fmt"
	"slices"
)

// OnlyMedium returns the one medium of type T, for devices whose medium
// attribute is optional (ARGoS's range_and_bearing actuator has none):
// an error says to declare one, or to name one when there are several.
func OnlyMedium[T any](w *World, kind string) (T, error) {
	var found []string
	for id, m := range w.media {
		if _, ok := m.(T); ok {
			found = append(found, id)
		}
	}
	var zero T
	switch len(found) {
	case 0:
		return zero, fmt.Errorf("entity: no %s medium; declare one under <media>", kind)
	case 1:
		return w.media[found[0]].(T), nil
	}
	slices.Sort(found)
	return zero, fmt.Errorf("entity: %d %s media (%q); name one with medium=\"%s\"", len(found), kind, found, found[0])
}
