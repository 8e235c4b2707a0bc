process.env.NODE_ENV='production';
const word = await import('../build/node/server/seed/word.js');
const { demoArticles } = await import('../build/node/content/demo-articles.js');
const conv = await import('../build/node/server/fulltext/convert.js');
console.log(Object.keys(conv));
for (let r=0;r<2;r++){
let tw=0, tc=0;
for (const a of demoArticles) {
  let t=performance.now(); const data = await word.writeManuscriptDocx(word.demoManuscript(a)); tw+=performance.now()-t;
  t=performance.now(); const out = await conv.convertDocx(data, a); tc+=performance.now()-t;
}
console.log('write', tw.toFixed(0), 'convert', tc.toFixed(0));
}
