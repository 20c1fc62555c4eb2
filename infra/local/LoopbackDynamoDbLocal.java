import com.almworks.sqlite4java.SQLiteConnection;
import com.almworks.sqlite4java.SQLiteJob;
import com.almworks.sqlite4java.SQLiteQueue;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.AbstractLocalDynamoDBServerHandler;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.server.LocalDynamoDBRequestHandler;
import software.amazon.dynamodb.services.local.shared.access.LocalDBClient;
import software.amazon.dynamodb.services.local.shared.access.sqlite.SQLiteDBAccess;

/**
 * DynamoDB Local, listening on 127.0.0.1 only.
 *
 * DynamoDB Local has no option for the address it listens on: it builds a Jetty server for a port,
 * which listens on every interface, and it checks no request signature — so anyone who can reach the
 * port can read and change every table. This builds the server exactly as DynamoDB Local's own main
 * does (same command-line options), binds its connector to the loopback address, then starts it.
 * Run by infra/local/dynamodb-local.ts with Java's source-file mode (`java … LoopbackDynamoDbLocal.java`).
 * If a DynamoDB Local release changes these internals, this fails to start rather than listening
 * everywhere.
 *
 * It also ends with the process that started it: its stdin is a pipe from that process, which closes
 * when it exits however it exits, so a killed `npm start` or test run leaves no database behind to hold
 * its data directory, its port and a share of the CPU.
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {}
      } catch (IOException e) {
        // A broken pipe is an ended parent too.
      }
      System.exit(0);
    });
    parentWatch.setDaemon(true);
    parentWatch.start();
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local built a server without a connector");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost("127.0.0.1");
    indexStreamRecords(proxy);
    proxy.start();
  }

  /**
   * Gives DynamoDB Local's stream-record table an index on its stream. DynamoDB Local keeps every
   * table's stream records in one SQLite table (`us`) with no index but the sequence number, and on
   * every request to a table with a stream it looks up that stream's first record
   * (`SELECT MIN(SequenceNumber) FROM us WHERE StreamID = ?`): a scan of every record every table has
   * written in the last 24 hours. A test run's database grows to tens of thousands of them, and the
   * scans took two thirds of its CPU. An index changes no answer, only how SQLite finds it. Made
   * before the server answers anything, in the one database `-sharedDb` gives every caller.
   */
  private static void indexStreamRecords(DynamoDBProxyServer proxy) throws Exception {
    Object serverHandler = field(DynamoDBProxyServer.class, "serverHandler").get(proxy);
    Object requestHandler = field(AbstractLocalDynamoDBServerHandler.class, "primaryHandler").get(serverHandler);
    Method getHandler = LocalDynamoDBRequestHandler.class.getDeclaredMethod("getHandler", String.class);
    getHandler.setAccessible(true);
    Object client = getHandler.invoke(requestHandler, "shared");
    Object access = field(LocalDBClient.class, "dbAccess").get(client);
    SQLiteQueue queue = (SQLiteQueue) field(SQLiteDBAccess.class, "queue").get(access);
    queue
        .execute(
            new SQLiteJob<Object>() {
              @Override
              protected Object job(SQLiteConnection connection) throws Throwable {
                connection.exec("CREATE INDEX IF NOT EXISTS us_stream_sequence ON us (StreamID, SequenceNumber)");
                return null;
              }
            })
        .get(); // throws what the job threw: a database without the table fails the start
  }

  private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
    Field field = owner.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }
}
