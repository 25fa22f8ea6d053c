package io.routegateway.gateway.publish;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.reactive.messaging.MutinyEmitter;
import org.eclipse.microprofile.reactive.messaging.Message;

/** Records what is sent; acknowledgement is up to the test. */
final class CapturingEmitter implements MutinyEmitter<String> {

    final List<Message<? extends String>> sent = new CopyOnWriteArrayList<>();
    boolean failing;

    @Override
    public <M extends Message<? extends String>> Cancellable sendMessageAndForget(M message) {
        if (failing) {
            throw new IllegalStateException("channel cancelled");
        }
        sent.add(message);
        return () -> {};
    }

    @Override
    public Uni<Void> send(String payload) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void sendAndAwait(String payload) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Cancellable sendAndForget(String payload) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <M extends Message<? extends String>> void send(M message) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <M extends Message<? extends String>> Uni<Void> sendMessage(M message) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <M extends Message<? extends String>> void sendMessageAndAwait(M message) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void complete() {}

    @Override
    public void error(Exception e) {}

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean hasRequests() {
        return true;
    }
}
