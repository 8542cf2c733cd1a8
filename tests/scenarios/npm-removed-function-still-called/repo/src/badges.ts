import imgkit from 'imgkit';

export function badge(buffer: Buffer): Promise<Buffer> {
    return imgkit(buffer).resize(96, 96).embed('north').tint('#ffffff').png().toBuffer();
}
