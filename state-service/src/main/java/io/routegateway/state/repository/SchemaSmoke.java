package io.routegateway.state.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code schema_smoke} (migration V1): shows that the schema and the mapping agree. */
@Entity
@Table(name = "schema_smoke")
public class SchemaSmoke extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, columnDefinition = "text")
    public String note;

    public SchemaSmoke() {}

    public SchemaSmoke(String note) {
        this.note = note;
    }
}
