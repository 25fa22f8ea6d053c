package io.routegateway.recovery.probe;

/** A model test that cannot be run as asked (HTTP 400 on the test API); nothing was sent or published. */
public class TestRejectedException extends RuntimeException {

    private final String code;

    public TestRejectedException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
