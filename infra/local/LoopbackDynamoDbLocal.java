import java.io.IOException;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

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
    proxy.start();
  }
}
