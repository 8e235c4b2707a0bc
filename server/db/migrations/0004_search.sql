CREATE TABLE "search_documents" (
	"article_id" integer PRIMARY KEY NOT NULL,
	"metadata" "tsvector" NOT NULL,
	"body" "tsvector" NOT NULL,
	"document" "tsvector" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_documents_document_idx" ON "search_documents" USING gin ("document");
--> statement-breakpoint
-- The index keeps itself: no service has to remember it. Metadata from the catalog tables; the body from
-- the text the similarity engine extracted from the article's PDF (capped at 300,000 characters).
CREATE FUNCTION search_metadata_vector(p_article integer) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english', a.title), 'A')
      || setweight(to_tsvector('english', a.keywords || ' ' || coalesce(
           (SELECT string_agg(au.name, ' ' ORDER BY au.position) FROM article_authors au WHERE au.article_id = a.id), '')), 'B')
      || setweight(to_tsvector('english', a.abstract), 'C')
  FROM articles a WHERE a.id = p_article
$$;
--> statement-breakpoint
CREATE FUNCTION search_body_vector(p_article integer) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT setweight(to_tsvector('english', left(d.text, 300000)), 'D')
       FROM similarity_documents d WHERE d.source_kind = 'article' AND d.source_id = p_article),
    ''::tsvector)
$$;
--> statement-breakpoint
CREATE FUNCTION search_refresh_metadata(p_article integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_documents SET metadata = m.v, document = m.v || body, updated_at = now()
    FROM (SELECT search_metadata_vector(p_article) AS v) m
   WHERE article_id = p_article AND EXISTS (SELECT 1 FROM articles WHERE id = p_article);
  IF NOT FOUND THEN
    INSERT INTO search_documents (article_id, metadata, body, document)
    SELECT x.id, x.m, x.b, x.m || x.b
      FROM (SELECT a.id, search_metadata_vector(a.id) AS m, search_body_vector(a.id) AS b FROM articles a WHERE a.id = p_article) x
    ON CONFLICT (article_id) DO NOTHING;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_refresh_body(p_article integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_documents SET body = b.v, document = metadata || b.v, updated_at = now()
    FROM (SELECT search_body_vector(p_article) AS v) b
   WHERE article_id = p_article;
  IF NOT FOUND THEN PERFORM search_refresh_metadata(p_article); END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_articles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_refresh_metadata(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_authors_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM search_refresh_metadata(OLD.article_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.article_id <> OLD.article_id) THEN
    PERFORM search_refresh_metadata(NEW.article_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_text_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.source_kind = 'article' THEN PERFORM search_refresh_body(OLD.source_id); END IF;
  IF TG_OP <> 'DELETE' AND NEW.source_kind = 'article'
     AND (TG_OP = 'INSERT' OR NEW.source_id <> OLD.source_id OR OLD.source_kind <> 'article') THEN
    PERFORM search_refresh_body(NEW.source_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_articles_changed AFTER INSERT OR UPDATE OF title, abstract, keywords ON articles
  FOR EACH ROW EXECUTE FUNCTION search_articles_changed();
--> statement-breakpoint
CREATE TRIGGER search_authors_changed AFTER INSERT OR UPDATE OF name, article_id, position OR DELETE ON article_authors
  FOR EACH ROW EXECUTE FUNCTION search_authors_changed();
--> statement-breakpoint
CREATE TRIGGER search_text_changed AFTER INSERT OR UPDATE OF text, source_kind, source_id OR DELETE ON similarity_documents
  FOR EACH ROW EXECUTE FUNCTION search_text_changed();
--> statement-breakpoint
-- Existing articles (and any text already extracted for them).
INSERT INTO search_documents (article_id, metadata, body, document)
SELECT x.id, x.m, x.b, x.m || x.b
  FROM (SELECT a.id, search_metadata_vector(a.id) AS m, search_body_vector(a.id) AS b FROM articles a) x
ON CONFLICT (article_id) DO NOTHING;
