import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * A walk of an MVStore map between two keys that can let go of its B-tree cursor and seek again
 * after the last key it reached: a find cursor's getMore walks the map's latest version, so no
 * old version of the store stays pinned between batches. Keys are unique and only move forward,
 * so nothing is reached twice.
 */
final class BTreeWalk<K, V> {
  private final MVMap<K, V> map;
  private final K from;
  private final K to;
  private final boolean reverse;
  private K lastKey;
  private boolean started;
  private Cursor<K, V> open;

  /** From {@code from} to {@code to} inclusive (null: the map's end), backwards when {@code reverse}. */
  BTreeWalk(MVMap<K, V> map, K from, K to, boolean reverse) {
    this.map = map;
    this.from = from;
    this.to = to;
    this.reverse = reverse;
  }

  /** The next key, or null at the end. */
  K next() {
    if (open == null) {
      open = map.cursor(started ? lastKey : from, to, reverse);
    }
    while (open.hasNext()) {
      K key = open.next();
      if (started && key.equals(lastKey)) {
        continue;
      }
      started = true;
      lastKey = key;
      return key;
    }
    return null;
  }

  /** The value of the key {@link #next} returned last. */
  V value() {
    return open.getValue();
  }

  /** Lets go of the B-tree cursor: the next call of {@link #next} seeks again. */
  void release() {
    open = null;
  }
}
