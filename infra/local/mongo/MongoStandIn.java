import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;
import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.h2.mvstore.MVMap;

/**
 * Runs mongo-java-server with its H2 backend as a standalone process: a MongoDB wire-protocol
 * stand-in for local runs and tests only. Production uses real MongoDB (>= 6.0).
 *
 * <p>Usage: java MongoStandIn HOST PORT DATA_FILE
 *
 * <p>The server reports itself as MongoDB 5.0 because the Node.js driver refuses servers older
 * than 4.2; what the stand-in really supports is covered by the compatibility tests.
 */
public final class MongoStandIn {
  /**
   * mongo-java-server creates a collection with an unsynchronised check-then-create: two
   * connections writing first into the same new collection build two instances, one fails to
   * register ("already existed in system.namespaces") and writes into it are lost. Real MongoDB
   * creates atomically; serialising creation per database gives the stand-in the same contract.
   * Pinned by compat/mongo-collections.test.ts ("concurrent first writes").
   */
  static final class AtomicCreationBackend extends H2Backend {
    /** MongoDB's ShutdownInProgress: drivers treat it as a transient, retriable server state. */
    private static final int SHUTDOWN_IN_PROGRESS = 91;

    /**
     * On SIGTERM mongo-java-server closes the client channels and then the MVStore while netty
     * threads may still be executing requests, so a request in flight failed in whatever way the
     * closing store made it fail. The gate makes shutdown orderly, as mongod's is: every request
     * runs under the read lock; close() takes the write lock, so it waits for the requests in
     * flight (what they wrote is stored) and every later one fails with ShutdownInProgress (91),
     * which drivers and the workers treat as transient. Exercised by the fault suite, which
     * restarts this server under load (docs/reliability.md).
     */
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();

    private boolean closed;

    AtomicCreationBackend(String dataFile) {
      super(dataFile);
    }

    private <T> T admitted(Supplier<T> request) {
      gate.readLock().lock();
      try {
        if (closed) {
          throw new MongoServerError(SHUTDOWN_IN_PROGRESS, "ShutdownInProgress", "the server is shutting down");
        }
        return request.get();
      } finally {
        gate.readLock().unlock();
      }
    }

    @Override
    public Document handleCommand(Channel channel, String database, String command, Document query) {
      return admitted(() -> super.handleCommand(channel, database, command, query));
    }

    @Override
    public QueryResult handleQuery(MongoQuery query) {
      return admitted(() -> super.handleQuery(query));
    }

    @Override
    public Document handleMessage(MongoMessage message) {
      return admitted(() -> super.handleMessage(message));
    }

    @Override
    public void close() {
      gate.writeLock().lock();
      try {
        if (!closed) {
          closed = true;
          super.close();
        }
      } finally {
        gate.writeLock().unlock();
      }
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String name) {
      return new H2Database(name, getMvStore(), getCursorRegistry()) {
        @Override
        protected synchronized MongoCollection<Object> resolveOrCreateCollection(String collection) {
          return super.resolveOrCreateCollection(collection);
        }

        @Override
        public synchronized MongoCollection<Object> createCollectionOrThrowIfExists(
            String collection, CollectionOptions options) {
          return super.createCollectionOrThrowIfExists(collection, options);
        }

        /** Same maps as H2Database.openOrCreateCollection (its prefixes are not public). */
        @Override
        protected MongoCollection<Object> openOrCreateCollection(
            String collectionName, CollectionOptions options) {
          String fullName = getFullCollectionNamespace(collectionName);
          MVMap<Object, Document> dataMap = getMvStore().openMap("databases." + fullName);
          MVMap<String, Object> metaMap = getMvStore().openMap("meta." + fullName);
          return new IdLookupCollection(
              this, collectionName, options, dataMap, metaMap, cursorRegistry);
        }
      };
    }
  }

  /**
   * mongo-java-server uses an index only when the filter's keys are exactly the index's keys, so
   * {@code {_id: x, "ap.0": {$not: {$gte: n}}}} (the workers' guarded bucket update) scans and
   * decodes the whole collection: docs/benchmarks.md measured 4.2 ms per update against 0.21 ms
   * for {@code {_id: x}} alone, growing with the collection. Real MongoDB serves both through the
   * {@code _id} index. Here a filter with a top-level {@code _id} equality (a plain value,
   * {@code {$eq: v}} or {@code {$in: [...]}}) and other conditions takes its candidates from the
   * {@code _id} index; the full filter is still applied to every candidate, so results are those
   * of a scan. Pinned by compat/mongo-id-lookup.test.ts.
   */
  static final class IdLookupCollection extends H2Collection {
    IdLookupCollection(
        MongoDatabase database,
        String collectionName,
        CollectionOptions options,
        MVMap<Object, Document> dataMap,
        MVMap<String, Object> metaMap,
        CursorRegistry cursorRegistry) {
      super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
    }

    @Override
    protected QueryResult queryDocuments(
        Document query,
        Document orderBy,
        int numberToSkip,
        int limit,
        int batchSize,
        Document fieldSelector) {
      Document idQuery = query.size() > 1 ? idEqualityQuery(query.get("_id")) : null;
      if (idQuery != null) {
        for (Index<Object> index : getIndexes()) {
          if (index.canHandle(idQuery)) {
            Iterable<Object> positions = index.getPositions(idQuery);
            return matchDocuments(
                query, positions, orderBy, numberToSkip, limit, batchSize, fieldSelector);
          }
        }
      }
      return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /** {@code {_id: v}} or {@code {_id: {$in: [...]}}} for an exact-match condition, else null. */
    private static Document idEqualityQuery(Object condition) {
      if (condition instanceof Document) {
        Document expression = (Document) condition;
        if (expression.size() != 1) {
          return null;
        }
        if (expression.containsKey("$eq")) {
          Object value = expression.get("$eq");
          return isPlainValue(value) ? new Document("_id", value) : null;
        }
        if (expression.containsKey("$in") && expression.get("$in") instanceof Collection) {
          for (Object value : (Collection<?>) expression.get("$in")) {
            if (!isPlainValue(value)) {
              return null;
            }
          }
          return new Document("_id", new Document("$in", expression.get("$in")));
        }
        return null;
      }
      return isPlainValue(condition) ? new Document("_id", condition) : null;
    }

    /** A value the index finds by equality: not null, an array, a sub-document or a regex. */
    private static boolean isPlainValue(Object value) {
      return value != null
          && !(value instanceof Document)
          && !(value instanceof Collection)
          && !BsonRegularExpression.isRegularExpression(value);
    }
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 3) {
      System.err.println("usage: MongoStandIn HOST PORT DATA_FILE");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    String dataFile = args[2];

    H2Backend backend = new AtomicCreationBackend(dataFile);
    backend.version(ServerVersion.MONGO_5_0);
    MongoServer server = new MongoServer(backend);
    server.bind(host, port);
    System.out.println("mongo-java-server listening on " + host + ":" + port + " data=" + dataFile);

    CountDownLatch stopped = new CountDownLatch(1);
    // SIGTERM runs shutdown hooks: the store is closed first (after the requests in flight, see
    // AtomicCreationBackend), so nothing acknowledged is lost; then the sockets.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  backend.close();
                  server.shutdownNow();
                  stopped.countDown();
                }));
    stopped.await();
  }
}
