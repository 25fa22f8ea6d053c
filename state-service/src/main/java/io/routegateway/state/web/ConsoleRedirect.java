package io.routegateway.state.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;

/**
 * {@code /console} is the console module's build: the bare path redirects to {@code /console/},
 * and {@link ConsoleFiles} serves the files beneath it (index.html never cached, hashed assets
 * cached for a year, the precompressed variant the browser accepts). {@code /favicon.ico}, which a
 * browser may ask for at the root, is the console's icon.
 */
@ApplicationScoped
public class ConsoleRedirect {

    public static final String PATH = "/console/";

    void route(@Observes Router router) {
        router.getWithRegex("/console").handler(context -> context.redirect(PATH));
        router.get("/favicon.ico").handler(context -> context.redirect(PATH + "favicon.svg"));
        ConsoleFiles files = new ConsoleFiles(Thread.currentThread().getContextClassLoader());
        router.route(PATH + "*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(files::handle);
    }
}
