import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.RandomAccessStore;
import org.h2.mvstore.cache.CacheLongKeyLIRS;

/**
 * Runs mongo-java-server with its H2 backend as a standalone process: a MongoDB wire-protocol
 * stand-in for local runs and tests only. Production uses real MongoDB (>= 6.0).
 *
 * <p>Usage: java MongoStandIn HOST PORT DATA_FILE [CACHE_MB]
 *
 * <p>The server reports itself as MongoDB 5.0 because the Node.js driver refuses servers older
 * than 4.2; what the stand-in really supports is covered by the compatibility tests. What this
 * launcher changes in the library, and why, is in StandInBackend, StandInCollection and
 * BsonDocumentType (docs/local-stack.md sums it up).
 */
public final class MongoStandIn {
  /** Housekeeping: how often; the live share below which chunks are rewritten, or the file compacted. */
  private static final long HOUSEKEEPING_EVERY_S = 5;
  private static final int REWRITE_BELOW_PERCENT = 80;
  private static final int REWRITE_BYTES = 16 << 20;
  private static final int SHRINK_BELOW_PERCENT = 80;
  private static final long MOVE_BYTES = 64L << 20;
  /**
   * How long a chunk outlives its last use before its space is reused. MVStore's default, 45 s,
   * guards readers that walk old versions and file systems that reorder writes on a power loss;
   * here every request pins the version it reads (StandInBackend) and the promise is a process
   * crash, not a power loss, so a short retention keeps a heavily written file from growing by
   * 45 s of writes.
   */
  private static final int RETENTION_MS = 2_000;
  private static final long TOC_CACHE_BYTES = 64L << 20;

  /**
   * H2 keeps each chunk's table of contents (where its pages are) in a cache fixed at 1 MiB. With
   * a chunk per committed request there are tens of thousands of chunks, and removing a map
   * looks up the chunk of every page it had: dropping a 960,000-bucket partition read tables of
   * contents from disk for minutes, holding the store. The field is private and final in
   * FileStore, so it is replaced by reflection; if H2 ever renames it, the default stays.
   */
  private static void enlargeTocCache(MVStore store, long bytes) {
    try {
      Field field = FileStore.class.getDeclaredField("chunksToC");
      field.setAccessible(true);
      CacheLongKeyLIRS.Config config = new CacheLongKeyLIRS.Config();
      config.maxMemory = bytes;
      field.set(store.getFileStore(), new CacheLongKeyLIRS<long[]>(config));
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("tables-of-contents cache left at H2's 1 MiB: " + e);
    }
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length < 3 || args.length > 4) {
      System.err.println("usage: MongoStandIn HOST PORT DATA_FILE [CACHE_MB]");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    String dataFile = args[2];
    int cacheMb = args.length == 4 ? Integer.parseInt(args[3]) : 64;

    // No auto-commit (no background writer, no commit mid-request): StandInBackend commits at the
    // end of every writing request, under its write lock.
    MVStore store =
        new MVStore.Builder()
            .fileName(dataFile)
            .cacheSize(cacheMb)
            .autoCommitDisabled()
            .autoCommitBufferSize(0)
            .open();
    store.setRetentionTime(RETENTION_MS);
    enlargeTocCache(store, TOC_CACHE_BYTES);
    StandInBackend backend = new StandInBackend(store);
    backend.version(ServerVersion.MONGO_5_0);
    MongoServer server = new MongoServer(backend);
    server.bind(host, port);
    System.out.println(
        "mongo-java-server listening on " + host + ":" + port + " data=" + dataFile + " cache=" + cacheMb + "MB");

    ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor();
    housekeeping.scheduleWithFixedDelay(
        () -> {
          try {
            backend.exclusively(() -> keepHouse(store));
          } catch (RuntimeException e) {
            // ShutdownInProgress after close(), or a failed compaction: the next round retries.
            System.err.println("housekeeping: " + e);
          }
        },
        HOUSEKEEPING_EVERY_S,
        HOUSEKEEPING_EVERY_S,
        TimeUnit.SECONDS);

    CountDownLatch stopped = new CountDownLatch(1);
    // SIGTERM runs shutdown hooks: the store is closed first (after the requests in flight, see
    // StandInBackend), so nothing acknowledged is lost; then the sockets.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  housekeeping.shutdownNow();
                  backend.close();
                  server.shutdownNow();
                  stopped.countDown();
                }));
    stopped.await();
  }

  /**
   * What the MVStore's background thread did, now between requests: rewrite the live pages of
   * chunks that are mostly dead (dropped partitions, overwritten buckets) so the chunks can be
   * freed and their space reused, then move chunks from the end of the file into free space and
   * truncate it, so dropping partitions gives disk back. One line on stdout when it did anything.
   */
  private static void keepHouse(MVStore store) {
    FileStore<?> file = store.getFileStore();
    long began = System.nanoTime();
    long sizeBefore = file.size();
    int chunksBefore = file.getChunksFillRate();
    boolean rewrote = chunksBefore < REWRITE_BELOW_PERCENT && store.compact(REWRITE_BELOW_PERCENT, REWRITE_BYTES);
    store.commit();
    int fileFill = file.getFillRate();
    if (fileFill < SHRINK_BELOW_PERCENT && file instanceof RandomAccessStore) {
      ((RandomAccessStore) file).compactMoveChunks(SHRINK_BELOW_PERCENT, MOVE_BYTES, store);
      store.commit();
    }
    if (rewrote || file.size() != sizeBefore) {
      System.out.printf(
          "housekeeping: %d ms; file %d -> %d MiB, live share of chunks %d%% -> %d%%, of the file %d%% -> %d%%%n",
          (System.nanoTime() - began) / 1_000_000, sizeBefore >> 20, file.size() >> 20, chunksBefore,
          file.getChunksFillRate(), fileFill, file.getFillRate());
    }
  }
}
