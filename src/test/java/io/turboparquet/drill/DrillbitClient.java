package io.turboparquet.drill;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.drill.common.config.DrillConfig;
import org.apache.drill.common.config.DrillProperties;
import org.apache.drill.exec.client.DrillClient;
import org.apache.drill.exec.physical.rowSet.DirectRowSet;
import org.apache.drill.exec.physical.rowSet.RowSetReader;
import org.apache.drill.exec.proto.SchemaUserBitShared;
import org.apache.drill.exec.proto.UserBitShared.QueryProfile;
import org.apache.drill.exec.proto.UserBitShared.QueryType;
import org.apache.drill.exec.rpc.user.UserResultsListener;
import org.apache.drill.exec.serialization.ProtoSerializer;
import org.apache.drill.test.BufferingQueryEventListener;
import org.apache.drill.test.QueryRowSetIterator;

/**
 * Drill's Java client (what its JDBC driver wraps) on drillbits that run in other JVMs: connected
 * through ZooKeeper, like {@code jdbc:drill:zk=HOST:PORT/drill/CLUSTER-ID}, or straight to one
 * drillbit, like {@code jdbc:drill:drillbit=HOST:PORT}, which then plans the queries (is their
 * foreman).
 */
final class DrillbitClient implements AutoCloseable {
  private final DrillClient client;

  private DrillbitClient(DrillClient client) {
    this.client = client;
  }

  /** Connects to one of the drillbits that ZooKeeper lists for the cluster. */
  static DrillbitClient viaZooKeeper(String zkConnect, String clusterId) throws Exception {
    DrillClient client = new DrillClient(DrillConfig.create());
    return connected(client, zkConnect + "/drill/" + clusterId, new Properties());
  }

  /** Connects to the drillbit at that user port. */
  static DrillbitClient direct(String host, int userPort) throws Exception {
    DrillClient client = new DrillClient(DrillConfig.create(), true);
    Properties props = new Properties();
    props.setProperty(DrillProperties.DRILLBIT_CONNECTION, host + ":" + userPort);
    return connected(client, null, props);
  }

  private static DrillbitClient connected(DrillClient client, String connect, Properties props) throws Exception {
    try {
      client.connect(connect, props);
      return new DrillbitClient(client);
    } catch (Exception | Error e) {
      client.close();
      throw e;
    }
  }

  /** All batches of a query; {@link QueryRowSetIterator#queryIdString()} once read. */
  QueryRowSetIterator query(String sql) {
    BufferingQueryEventListener listener = new BufferingQueryEventListener();
    client.runQuery(QueryType.SQL, sql, listener);
    return new QueryRowSetIterator(client.getAllocator(), listener);
  }

  Result result(String sql) {
    return Result.of(query(sql));
  }

  /** Runs a statement (ALTER SESSION ...) and discards its answer. */
  void run(String sql) {
    Result.of(query(sql));
  }

  /** Starts a query whose events go to the listener (on the client's threads). */
  void start(String sql, UserResultsListener listener) {
    client.runQuery(QueryType.SQL, sql, listener);
  }

  /** A finished query's profile, read through sys.profiles_json (the JSON of Drill's profile store). */
  QueryProfile profile(String queryId) throws Exception {
    String json = null;
    for (DirectRowSet batch : query("select json from sys.profiles_json where queryId = '" + queryId + "'")) {
      try {
        RowSetReader reader = batch.reader();
        while (reader.next()) {
          json = reader.scalar(0).getString();
        }
      } finally {
        batch.clear();
      }
    }
    if (json == null) {
      throw new AssertionError("no profile of query " + queryId + " in sys.profiles_json");
    }
    return new ProtoSerializer<QueryProfile, QueryProfile.Builder>(SchemaUserBitShared.QueryProfile.MERGE,
        SchemaUserBitShared.QueryProfile.WRITE).deserialize(json.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    client.close();
  }
}
