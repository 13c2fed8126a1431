import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import java.util.concurrent.CountDownLatch;

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
    AtomicCreationBackend(String dataFile) {
      super(dataFile);
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
      };
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
    // SIGTERM runs shutdown hooks: close sockets first, then flush the MVStore to disk.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.shutdownNow();
                  backend.close();
                  stopped.countDown();
                }));
    stopped.await();
  }
}
