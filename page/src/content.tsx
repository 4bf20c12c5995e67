// A result as its content types say: text, images, audio, embedded resources, links to resources, and
// structuredContent with the check against the tool's output schema.

export type Block = Record<string, unknown> & { type?: string };

export function Contents(props: { blocks: Block[]; onOpen?: (uri: string) => void }) {
  return (
    <div class="contents">
      {props.blocks.map((block, i) => (
        <ContentBlock key={i} block={block} onOpen={props.onOpen} />
      ))}
    </div>
  );
}

function ContentBlock({ block, onOpen }: { block: Block; onOpen?: (uri: string) => void }) {
  switch (block.type) {
    case 'text':
      return (
        <pre class="block text" data-type="text">
          {String(block.text ?? '')}
        </pre>
      );
    case 'image':
      return (
        <div class="block" data-type="image">
          <img
            alt="what the tool returned"
            src={`data:${String(block.mimeType)};base64,${String(block.data)}`}
          />
          <span class="muted">{String(block.mimeType)}</span>
        </div>
      );
    case 'audio':
      return (
        <div class="block" data-type="audio">
          {/* biome-ignore lint/a11y/useMediaCaption: a tool's audio has no captions to offer */}
          <audio controls src={`data:${String(block.mimeType)};base64,${String(block.data)}`} />
          <span class="muted">{String(block.mimeType)}</span>
        </div>
      );
    case 'resource':
      return <ResourceContents resource={(block.resource ?? {}) as Block} embedded />;
    case 'resource_link':
      return (
        <div class="block" data-type="resource_link">
          🔗{' '}
          <button type="button" class="link" onClick={() => onOpen?.(String(block.uri))}>
            {String(block.name ?? block.uri)}
          </button>{' '}
          <span class="muted">{String(block.uri)}</span>
        </div>
      );
    default:
      return <pre class="block">{JSON.stringify(block, null, 2)}</pre>;
  }
}

/** One item of a resource's contents (what resources/read returns, or an embedded resource). */
export function ResourceContents({ resource, embedded }: { resource: Block; embedded?: boolean }) {
  const mime = String(resource.mimeType ?? '');
  return (
    <div class="block resource" data-type={embedded ? 'resource' : 'contents'}>
      <div class="muted">
        {embedded ? 'embedded ' : ''}
        {String(resource.uri)} {mime}
      </div>
      {typeof resource.text === 'string' ? (
        <pre class="text">{resource.text}</pre>
      ) : typeof resource.blob === 'string' ? (
        mime.startsWith('image/') ? (
          <img alt={String(resource.uri)} src={`data:${mime};base64,${resource.blob}`} />
        ) : (
          <span class="muted">
            {Math.floor((resource.blob.length * 3) / 4)} bytes of {mime || 'binary'}
          </span>
        )
      ) : null}
    </div>
  );
}

export function Structured(props: { value: unknown; check?: { valid: boolean; issues: string[] } }) {
  return (
    <div class="block structured" data-type="structured">
      <div class="muted">
        structuredContent{' '}
        {props.check ? (
          props.check.valid ? (
            <span class="ok" data-check="valid">
              ✓ matches the output schema
            </span>
          ) : (
            <span class="bad" data-check="invalid">
              ✗ {props.check.issues.join('; ')}
            </span>
          )
        ) : null}
      </div>
      <pre>{JSON.stringify(props.value, null, 2)}</pre>
    </div>
  );
}
