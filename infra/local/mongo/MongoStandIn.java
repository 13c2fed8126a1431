import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
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
  public static void main(String[] args) throws InterruptedException {
    if (args.length != 3) {
      System.err.println("usage: MongoStandIn HOST PORT DATA_FILE");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    String dataFile = args[2];

    H2Backend backend = new H2Backend(dataFile);
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
