package io.routegateway.core.bridge;

/**
 * How much the model should reason: an effort level (OpenAI's {@code reasoning_effort}) and/or a
 * token budget (Anthropic's {@code budget_tokens}, Gemini's {@code thinkingBudget}). Each side
 * derives the one it lacks from the other.
 */
public record ReasoningConfig(String effort, Integer budgetTokens) {

    /** Budget for an effort level, for protocols that take a budget. */
    public int budget() {
        if (budgetTokens != null) {
            return budgetTokens;
        }
        return switch (effort == null ? "medium" : effort) {
            case "minimal", "low" -> 2048;
            case "high", "xhigh" -> 24576;
            default -> 8192;
        };
    }

    /** Effort level for a budget, for protocols that take a level. */
    public String level() {
        if (effort != null) {
            return effort;
        }
        int budget = budgetTokens == null ? 8192 : budgetTokens;
        return budget <= 4096 ? "low" : budget <= 16384 ? "medium" : "high";
    }

    /** Reasoning switched off (Gemini {@code thinkingBudget: 0}, OpenAI effort {@code none}). */
    public boolean disabled() {
        return "none".equals(effort) || (budgetTokens != null && budgetTokens == 0);
    }
}
